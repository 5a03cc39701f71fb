#include "decision.h"
#include "env.h"

uint64_t __ss_decision_make(uint64_t *w, uint64_t made, ss_decision_make_fn make)
{
	uint64_t old = __atomic_load_n(w, __ATOMIC_RELAXED), v;

	if (old & made)
		return old;
	v = make();
	/* A word not made may hold bits set beforehand (sysshim_align_paths() before the
	 * probe): those are the maker's to keep or not; the first made word stays. */
	while (!(old & made))
		if (__atomic_compare_exchange_n(w, &old, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return v;
	return old;
}

uint64_t __ss_decision_change(uint64_t *w, uint64_t made, ss_decision_make_fn make,
			  ss_decision_change_fn change, uint64_t arg)
{
	uint64_t old = __ss_decision(w, made, make), v;

	do
		v = change(old, arg);
	while (v != old &&
	       !__atomic_compare_exchange_n(w, &old, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return v;
}

int __ss_env_choice(const char *var, const char *const *names, int n, int dflt,
		    const char *known)
{
	int m = __ss_env_pick(var, names, n);
	const char *parts[] = { "sysshim: unknown ", var, "=", __ss_env_value(var),
				" ignored (known: ", known, ")\n" };

	if (m >= 0)
		return m;
	if (m == -2)
		for (unsigned i = 0; i < sizeof parts / sizeof *parts; i++)
			__ss_write_all(2, parts[i], __ss_strlen(parts[i]));
	return dflt;
}
