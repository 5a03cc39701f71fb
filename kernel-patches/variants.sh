# SPDX-License-Identifier: GPL-2.0
#
# kernel-patches/variants.sh: the second job of kernel-patches/build.sh, sourced by it:
# the other configurations (KP_KCONFIG=debian or arm64) and their commands vconfig,
# vbuild, vbench and vimage. It uses build.sh's helpers (say, die, the source steps,
# make_kernel, cmd_boot) and is not run on its own.

# ------------------------------------------------------ other configs
# KP_KCONFIG=debian: Debian's own x86_64 configuration (the kernel users run:
# -O2, Debian's hardening and mitigations, its LSMs and audit) without
# modules.  KP_KCONFIG=arm64: tinyconfig + arm64.fragment for qemu -M virt.
# The source trees (dl/, src/, patched-<stage>/) are in KP_SRC_DIR, filled
# under the lock KP_SRC_DIR/.lock-src; each build is in
# KP_BUILD/<source version>-<hash of the .config>/obj-<stage>.
KP_DEBIAN_FRAGMENT=$KP_SERIES_DIR/debian.fragment
KP_ARM64_FRAGMENT=$KP_SERIES_DIR/arm64.fragment
# Options whose value must stay Debian's (the code the measured calls run).
KP_DEBIAN_KEEP="CC_OPTIMIZE_FOR_PERFORMANCE CC_OPTIMIZE_FOR_SIZE STACKPROTECTOR
	STACKPROTECTOR_STRONG FORTIFY_SOURCE RETPOLINE RETHUNK SLS CPU_UNRET_ENTRY
	CPU_IBPB_ENTRY CPU_IBRS_ENTRY CPU_SRSO PAGE_TABLE_ISOLATION CPU_MITIGATIONS
	HARDENED_USERCOPY INIT_STACK_NONE INIT_STACK_ALL_ZERO INIT_ON_ALLOC_DEFAULT_ON
	INIT_ON_FREE_DEFAULT_ON RANDOMIZE_KSTACK_OFFSET RANDOMIZE_KSTACK_OFFSET_DEFAULT
	RANDOMIZE_BASE RANDOMIZE_MEMORY X86_KERNEL_IBT ZERO_CALL_USED_REGS
	SECURITY SECURITY_PATH SECURITY_APPARMOR SECURITY_SELINUX SECURITY_TOMOYO
	SECURITY_YAMA SECURITY_LANDLOCK SECURITY_LOCKDOWN_LSM BPF_LSM LSM IMA EVM
	AUDIT AUDITSYSCALL SECCOMP SECCOMP_FILTER FTRACE FUNCTION_TRACER DYNAMIC_FTRACE
	KPROBES PREEMPT_VOLUNTARY PREEMPT_DYNAMIC HZ NR_CPUS SLUB SLAB_FREELIST_HARDENED
	SLAB_FREELIST_RANDOM SHUFFLE_PAGE_ALLOCATOR VMAP_STACK THREAD_INFO_IN_TASK
	PARAVIRT X86_64 SMP KALLSYMS CONTEXT_TRACKING_USER NO_HZ_IDLE MEMCG CGROUPS"

v_setup() {
	case "$KP_KCONFIG" in
	debian)
		V_ARCH=x86_64 V_TARGET=bzImage V_IMG=arch/x86/boot/bzImage V_IMGNAME=bzImage
		V_MAKE=()
		V_STAGES=${KP_STAGES:-stock p123 p1234}
		V_CC=gcc ;;
	arm64)
		V_ARCH=arm64 V_TARGET=Image V_IMG=arch/arm64/boot/Image V_IMGNAME=Image
		V_MAKE=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
		V_STAGES=${KP_STAGES:-stock p1234}
		V_CC=aarch64-linux-gnu-gcc
		KP_EXTRA_DEBS="qemu-system-arm libc6-dev-arm64-cross"
		KP_EXTRA_TOOLS="qemu-system-aarch64:qemu-system-arm" ;;
	*) die "KP_KCONFIG=$KP_KCONFIG: the v* commands take debian or arm64" ;;
	esac
	export KP_ARCH=$V_ARCH
	V_NICE=()
	[ -n "$KP_NICE" ] && V_NICE=(nice -n "$KP_NICE")
	return 0
}

stage_patches() {	# STAGE: the patches of stage pNNN (digits = positions in series)
	local st=$1 all i
	mapfile -t all < <(series_patches)
	[[ "$st" =~ ^p[1-9]+$ ]] || die "stage $st: want stock or p<positions>, e.g. p123"
	for ((i = 1; i < ${#st}; i++)); do
		[ "${st:i:1}" -le "${#all[@]}" ] || die "stage $st: the series has ${#all[@]} patches"
		echo "${all[${st:i:1}-1]}"
	done
}

stage_tree() {	# STAGE: its source tree
	if [ "$1" = stock ]; then echo "$PRISTINE"; else echo "$KP_SRC_DIR/patched-$1/$KP_TREE"; fi
}

# The sources: fetch, unpack and patch every stage, under the source lock
# (short; other configurations may share KP_SRC_DIR).
v_sources() {
	local st p
	cmd_deps
	exec 8>"$KP_SRC_DIR/.lock-src"
	flock 8
	cmd_fetch
	cmd_unpack
	for st in $V_STAGES; do
		[ "$st" = stock ] && continue
		mapfile -t p < <(stage_patches "$st")
		patch_tree "$KP_SRC_DIR/patched-$st" "${p[@]}" | sed 's/^/  /'
	done
	[ "$KP_KCONFIG" = debian ] && debian_image
	flock -u 8
	exec 8>&-
}

# Debian's linux-image package of the same version as the source, through the test bed's
# one Debian-kernel fetcher: its config (the base of KP_KCONFIG=debian) and, for the
# reference boot, its vmlinuz, in KP_SRC_DIR/debian-image.
debian_image() {
	local f=$KP_ROOT/testbed/fetch-debian-kernel.sh d=$KP_SRC_DIR/debian-image
	"$f" "$d" amd64 system "$KP_DEBIAN_IMAGE${KP_SRC_VERSION:+=$KP_SRC_VERSION}" ||
		{ [ -n "$KP_SRC_VERSION" ] &&
		  say "WARNING: no $KP_DEBIAN_IMAGE=$KP_SRC_VERSION: trying apt's candidate of $KP_DEBIAN_IMAGE" &&
		  "$f" "$d" amd64 system "$KP_DEBIAN_IMAGE"; } ||
		die "fetching $KP_DEBIAN_IMAGE failed (KP_DEBIAN_IMAGE= names another)"
}

debian_file() {	# config|vmlinuz
	if [ -e "$KP_SRC_DIR/debian-image/$1" ]; then readlink -f "$KP_SRC_DIR/debian-image/$1"; fi
}

# The config, cached by its inputs in KP_BUILD/configs/<hash>; sets V_WORK.
v_config() {
	local key dir frag base s v missing="" srcver cfg h blabel=tinyconfig
	[ -f "$KP_SRC_DIR/src/.unpacked" ] || v_sources
	case "$KP_KCONFIG" in
	debian) frag=$KP_DEBIAN_FRAGMENT; base=$(debian_file config)
		[ -n "$base" ] || { v_sources; base=$(debian_file config); }
		[ -n "$base" ] || die "no config-* in $KP_SRC_DIR/debian-image"
		blabel="$(basename "$base") without its modules" ;;
	arm64) frag=$KP_ARM64_FRAGMENT base=/dev/null ;;
	esac
	key=$( { echo "$KP_KCONFIG"; cat "$KP_SRC_DIR/src/.unpacked" "$frag" "$base"; } |
		sha256sum | cut -c1-16)
	dir=$KP_BUILD/configs/$key
	if [ ! -f "$dir/.config" ]; then
		say "making the $KP_KCONFIG config: $blabel + $(basename "$frag")"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp" "$LOGS"
		{
			if [ "$KP_KCONFIG" = debian ]; then
				# no modules: every =m of Debian's becomes "not set"
				sed 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/# \1 is not set/' "$base" >"$dir.tmp/base"
			else
				make -C "$PRISTINE" O="$dir.tmp" "${V_MAKE[@]}" tinyconfig &&
				mv "$dir.tmp/.config" "$dir.tmp/base"
			fi &&
			"$PRISTINE/scripts/kconfig/merge_config.sh" -m -O "$dir.tmp" \
				"$dir.tmp/base" "$frag" &&
			make -C "$PRISTINE" O="$dir.tmp" "${V_MAKE[@]}" olddefconfig
		} >"$LOGS/config-$KP_KCONFIG.log" 2>&1 ||
			{ tail -20 "$LOGS/config-$KP_KCONFIG.log" >&2; die "$KP_KCONFIG config failed"; }
		cfg=$dir.tmp/.config
		while IFS='=' read -r s v; do
			case "$s" in
			CONFIG_*) grep -qx "$s=$v" "$cfg" || missing="$missing $s=$v" ;;
			"# CONFIG_"*) s=${s#\# }; s=${s%% *}
				! grep -q "^$s=" "$cfg" || missing="$missing $s(not set)" ;;
			esac
		done <"$frag"
		[ -z "$missing" ] || die "$(basename "$frag") values not in the final config:$missing"
		if [ "$KP_KCONFIG" = debian ]; then
			for s in $KP_DEBIAN_KEEP; do
				[ "$(grep "^CONFIG_$s=" "$base")" = "$(grep "^CONFIG_$s=" "$cfg")" ] ||
					missing="$missing $s($(grep "^CONFIG_$s=" "$base" | cut -d= -f2)->$(grep "^CONFIG_$s=" "$cfg" | cut -d= -f2))"
			done
			[ -z "$missing" ] || die "options that must stay Debian's changed:$missing"
			say "$KP_KCONFIG config: $(grep -c '=y$' "$cfg") options =y (Debian: $(grep -c '=y$' "$base") =y, $(grep -c '=m$' "$base") =m)"
		fi
		mv "$dir.tmp" "$dir"
	fi
	srcver=$(sed -n 's/^[^_]*_\([^_]*\)_.*/\1/p' "$KP_SRC_DIR/src/.unpacked")
	h=$(sha256sum "$dir/.config" | cut -c1-12)
	V_WORK=$KP_BUILD/$srcver-$h
	mkdir -p "$V_WORK/logs"
	cmp -s "$dir/.config" "$V_WORK/config" || cp "$dir/.config" "$V_WORK/config"
	say "$KP_KCONFIG builds: $V_WORK"
}

vconfig() { v_sources; v_config; }

v_build_stage() {	# STAGE
	local st=$1 src obj t0 t1 log how
	src=$(stage_tree "$st")
	obj=$V_WORK/obj-$st
	log=$V_WORK/logs/build-$st.log
	[ -f "$src/Makefile" ] || die "no source tree $src"
	how=incremental
	if [ "$st" != stock ] && [ ! -e "$obj" ] && [ -f "$V_WORK/obj-stock/vmlinux" ]; then
		seed_obj "$V_WORK/obj-stock" "$obj" "$PRISTINE" "$src"
		how="seeded from obj-stock"
	fi
	[ -f "$obj/vmlinux" ] || [ "$how" != incremental ] || how="first build"
	mkdir -p "$obj"
	cmp -s "$V_WORK/config" "$obj/.config" || cp "$V_WORK/config" "$obj/.config"
	say "building $st ($KP_KCONFIG, $how) in $obj (log: $log)"
	t0=$(date +%s)
	make_kernel "$st" "$log" "${V_NICE[@]}" make -C "$src" O="$obj" "${V_MAKE[@]}" \
		LOCALVERSION="-kp$st" -j"$KP_JOBS" "$V_TARGET"
	t1=$(date +%s)
	cp "$obj/$V_IMG" "$V_WORK/$V_IMGNAME-$st"
	echo "$(date -u +%FT%TZ) $((t1 - t0)) s $how, -j$KP_JOBS, $(grep -c '^  CC ' "$log") files compiled, load $(cut -d' ' -f1-3 /proc/loadavg)" \
		>>"$V_WORK/logs/build-$st.times"
	say "$st: $V_WORK/$V_IMGNAME-$st ($(cat "$obj/include/config/kernel.release"), $((t1 - t0)) s, $how)"
}

vbuild() {
	local st pids=() rc=0 p
	v_sources
	v_config
	case " $V_STAGES " in *" stock "*) v_build_stage stock ;; esac
	# The patched stages differ from stock in fs/stat.c only: their builds are
	# mostly the (single-threaded) link, so they run side by side.
	for st in $V_STAGES; do
		[ "$st" = stock ] && continue
		(v_build_stage "$st") &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	[ "$rc" = 0 ] || die "a $KP_KCONFIG stage failed to build"
	if [ "$V_ARCH" = arm64 ]; then
		cmd_initramfs "$V_CC" "$KP_BUILD/kpt-initramfs-arm64.cpio.gz"
	else
		cmd_initramfs
	fi
}

vbench() {
	local st rc=0 ird cols="" words np=0 nf=0
	vbuild
	ird=$KP_BUILD/kpt-initramfs.cpio.gz
	[ "$V_ARCH" = arm64 ] && ird=$KP_BUILD/kpt-initramfs-arm64.cpio.gz
	rm -f "$V_WORK"/logs/kpt-*.out
	# Debian's own binary kernel first: the reference the stock build must match.
	if [ "$KP_KCONFIG" = debian ] && [ "${KP_DEBIAN_BINARY:-1}" = 1 ]; then
		if (KP_BOOTLOG=$V_WORK/logs/boot-debian.log cmd_boot "$(debian_file vmlinuz)" "$ird" \
			KPT_EXPECT=stock KPT_PERF=report >"$V_WORK/logs/kpt-debian.out"); then
			np=$((np + 1)); else rc=1 nf=$((nf + 1)); fi
		grep -v '^KPT: PASS ' "$V_WORK/logs/kpt-debian.out" || true
		cols=debian
	fi
	for st in $V_STAGES; do
		words="KPT_EXPECT=patched"
		[ "$st" = stock ] && words="KPT_EXPECT=stock"
		if (KP_BOOTLOG=$V_WORK/logs/boot-$st.log cmd_boot "$V_WORK/$V_IMGNAME-$st" "$ird" \
			$words KPT_PERF=report >"$V_WORK/logs/kpt-$st.out"); then
			np=$((np + 1)); else rc=1 nf=$((nf + 1)); fi
		grep -v '^KPT: PASS ' "$V_WORK/logs/kpt-$st.out" || true
		cols="$cols $st"
	done
	v_table $cols | tee "$V_WORK/logs/table.txt"
	say "table: $V_WORK/logs/table.txt"
	echo "kernel-patches-$KP_KCONFIG: $np passed, $nf failed (kernels booted with the patch test)"
	[ "$rc" = 0 ] || die "a guest failed (logs: $V_WORK/logs/boot-*.log)"
}

v_table() {	# COLUMN...: the table from V_WORK/logs/kpt-COLUMN.out
	local c files=""
	for c; do files="$files $V_WORK/logs/kpt-$c.out"; done
	echo
	echo "$KP_KCONFIG config ($V_WORK), ns per call, median (ratio to fstat in the same round):"
	awk -v cols="$*" -v files="$files" '
	function label(c) {
		if (c == "debian") return "Debian binary"
		if (c == "stock") return "stock"
		if (c ~ /^p[0-9]+$/) {
			s = substr(c, 2)
			if (s == "1234") return "patches 1-4"
			if (s == "123") return "patches 1-3"
			return "patches " s
		}
		return c
	}
	BEGIN {
		nc = split(cols, col, " "); split(files, fil, " ")
		for (j = 1; j <= nc; j++) {
			while ((getline l < fil[j]) > 0) {
				if (l ~ /^KPT: start: kernel /) { split(l, u, " "); rel[j] = u[4] }
				if (l !~ /^KPT: BENCH /) continue
				split(l, f, " ")
				ns[j, f[3]] = f[4]; rat[j, f[3]] = f[5]
				d = l; sub(/^KPT: BENCH +[^ ]+ +[^ ]+ +[^ ]+ +/, "", d); desc[f[3]] = d
			}
		}
		split("fstat newfstatat_empty statx_empty statx_null getppid", k, " ")
		printf "| call |"; for (j = 1; j <= nc; j++) printf " %s |", label(col[j]); printf "\n"
		printf "|---|"; for (j = 1; j <= nc; j++) printf "---|"; printf "\n"
		for (i = 1; i <= 5; i++) {
			printf "| `%s` |", desc[k[i]] != "" ? desc[k[i]] : k[i]
			for (j = 1; j <= nc; j++) {
				n = ns[j, k[i]]
				if (n == "") printf " (no run) |"
				else if (n == "-") printf " %s |", rat[j, k[i]]
				else printf " %s (%s) |", n, rat[j, k[i]]
			}
			printf "\n"
		}
		printf "\nkernels:"; for (j = 1; j <= nc; j++) printf " %s=%s", col[j], rel[j]; printf "\n"
		printf "\neach step of the series (ratio to fstat; ns per call):\n"
		for (j = 2; j <= nc; j++) {
			if (col[j - 1] == "debian") continue
			printf "%s -> %s:\n", label(col[j - 1]), label(col[j])
			for (i = 2; i <= 4; i++) {
				a = ns[j - 1, k[i]]; b = ns[j, k[i]]
				if (b == "" || b == "-") continue
				if (a == "" || a == "-")
					printf "  %-34s %s -> %.2f (%d ns)\n", desc[k[i]], rat[j - 1, k[i]], rat[j, k[i]], b
				else
					printf "  %-34s %.2f -> %.2f (%+.2f); %d -> %d ns (%+.0f%%)\n", desc[k[i]],
						rat[j - 1, k[i]], rat[j, k[i]], rat[j, k[i]] - rat[j - 1, k[i]],
						a, b, 100 * (b - a) / a
			}
		}
	}'
	echo
}
