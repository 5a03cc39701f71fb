#!/usr/bin/env python3
"""bench-real's report: reads the guest's results (testbed/bench-real/guest.sh).

    report.py bench LABEL=results.txt...   the tables (README "What real programs gain")
    report.py check LABEL=results.txt...   outputs identical across set-ups, sysshim-run's
                                           decision (preload on 6.1, step aside on 6.12);
                                           prints "check-real: N passed, N failed"
Paired differences: per round, the set-up's time over glibc's in the same round (the
runs are interleaved); the mean of the log ratios with a 95% t interval, as percent.
"""
import math, statistics as st, sys
from collections import defaultdict

T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
        10: 2.23, 11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 17: 2.11,
        18: 2.10, 19: 2.09, 20: 2.09, 25: 2.06, 30: 2.04}
SETUPS = ['empty', 'preload', 'auto', 'always', 'backport']


def tq(df):
    if df in T975:
        return T975[df]
    return 2.0 if df > 30 else T975[min(k for k in T975 if k >= df)]


def parse(path):
    r = {'T': defaultdict(lambda: defaultdict(list)), 'count': {}, 'site': defaultdict(list),
         'decide': '', 'measure': [], 'info': [], 'warn': [], 'end': False, 'kernel': '?'}
    for line in open(path, errors='replace'):
        f = line.split()
        if not f:
            continue
        if f[0] == 'T' and len(f) >= 7:
            rnd, w, s, ns, rc, sha = int(f[1]), f[2], f[3], int(f[4]), int(f[5]), f[6]
            r['T'][w][s].append((rnd, ns, rc, sha))
        elif f[0] == 'COUNT' and len(f) in (7, 10):
            # fstat, newfstatat(fd, ""), (fd, NULL), (path), statx(fd, ""), (fd, NULL), (path);
            # an older guest's four: fstat, newfstatat(fd, ""), (path), statx.
            c = [int(x) for x in f[3:]]
            if len(c) == 4:
                c = [c[0], c[1], 0, c[2], 0, 0, c[3]]
            r['count'][(f[1], f[2])] = tuple(c)
        elif f[0] == 'SITE':
            r['site'][f[1]].append((int(f[2]), ' '.join(f[3:])))
        elif f[0] == 'DECIDE':
            r['decide'] = line.split(' ', 1)[1].strip()
        elif f[0] == 'MEASURE':
            # "fstat 1000.8 ns, newfstatat-empty 2576.6 ns, ratio 2.57"
            r['measure'].append((float(f[2]), float(f[5])))
        elif f[0] == 'INFO':
            r['info'].append(line.split(' ', 1)[1].strip())
            if f[1] == 'kernel':
                r['kernel'] = f[2]
        elif f[0] == 'WARN':
            r['warn'].append(line.strip())
        elif f[0] == 'END':
            r['end'] = True
    return r


def per_round(runs):
    """round -> median ns of that round's runs (rounds > 0: round 0 is the warm-up)."""
    by = defaultdict(list)
    for rnd, ns, rc, sha in runs:
        if rnd > 0:
            by[rnd].append(ns)
    return {k: st.median(v) for k, v in by.items()}


def paired(a, b):
    """a, b: round -> ns. Mean of log(b/a) over common rounds, 95% CI, as percent."""
    ks = sorted(set(a) & set(b))
    if not ks:
        return None
    d = [math.log(b[k] / a[k]) for k in ks]
    m = st.mean(d)
    h = tq(len(d) - 1) * st.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float('nan')
    pct = lambda x: (math.exp(x) - 1) * 100
    return pct(m), pct(m - h), pct(m + h), len(d)


def diff_ms(a, b):
    """a, b: round -> ns. Mean of b - a over common rounds with its 95% CI, in ms."""
    ks = sorted(set(a) & set(b))
    if len(ks) < 2:
        return None
    d = [(b[k] - a[k]) / 1e6 for k in ks]
    m = st.mean(d)
    h = tq(len(d) - 1) * st.stdev(d) / math.sqrt(len(d))
    return m, m - h, m + h


def fmt_d(p):
    if p is None:
        return '-'
    m, lo, hi, n = p
    if math.isnan(lo):
        return '%+.1f%%' % m
    return '%+.1f%% [%+.1f, %+.1f]' % (m, lo, hi)


def outputs_same(r):
    """workload -> (ok, detail): one output hash across set-ups and rounds, exit codes 0."""
    res = {}
    for w, bys in r['T'].items():
        if w == 'true':
            continue
        shas = {s: {x[3] for x in runs} for s, runs in bys.items()}
        rcs = {x[2] for runs in bys.values() for x in runs}
        allsha = set().union(*shas.values())
        ok = len(allsha) == 1 and rcs == {0}
        res[w] = (ok, ' '.join('%s=%s' % (s, ','.join(sorted(v))) for s, v in sorted(shas.items()))
                  + ('' if rcs == {0} else ' exit codes %s' % sorted(rcs)))
    return res


def check(args):
    npass = nfail = 0

    def verdict(ok, what):
        nonlocal npass, nfail
        if ok:
            npass += 1
        else:
            nfail += 1
        print('  %s %s' % ('ok  ' if ok else 'FAIL', what))
    for a in args:
        label, path = a.split('=', 1)
        try:
            r = parse(path)
        except OSError as e:
            verdict(False, '%s: %s' % (label, e))
            continue
        print('-- kernel %s (%s)' % (label, r['kernel']))
        verdict(r['end'], '%s: the guest ran to the end' % label)
        verdict(r['kernel'].startswith(label + '.'), '%s: booted kernel %s' % (label, r['kernel']))
        for w, (ok, detail) in sorted(outputs_same(r).items()):
            verdict(ok, '%s: %s: the same output under every set-up%s' % (label, w, '' if ok else ': ' + detail))
        want = 'preloading' if label == '6.1' else 'not preloading'
        d = r['decide']
        verdict(d.startswith('sysshim-run: ' + want), '%s: sysshim-run %s: %s' % (label, want, d[:160]))
        setups = set(s for bys in r['T'].values() for s in bys)
        verdict({'glibc', 'auto', 'always'} <= setups, '%s: set-ups run: %s' % (label, ' '.join(sorted(setups))))
        for x in r['warn']:
            print('  ' + x)
    print('check-real: %d passed, %d failed' % (npass, nfail))
    return nfail == 0


def across(args):
    """glibc alone on each kernel, medians (separate boots: not paired), ratio to the first."""
    rs = [(a.split('=', 1)[0], parse(a.split('=', 1)[1])) for a in args]
    ws = [w for w in rs[0][1]['T'] if w != 'true']
    print('glibc alone across kernels (medians of separate boots, not paired; ratio to %s):' % rs[0][0])
    print('| workload | ' + ' | '.join('%s (ms)' % l for l, _ in rs) + ' |')
    print('|---|' + '---:|' * len(rs))
    for w in ws:
        med = []
        for l, r in rs:
            g = per_round(r['T'].get(w, {}).get('glibc', []))
            med.append(st.median(g.values()) if g else None)
        base = med[0]
        print('| %s | %s |' % (w, ' | '.join('-' if m is None else '%.0f' % (m / 1e6) + (
            '' if i == 0 or not base else ' (%.2f)' % (m / base)) for i, m in enumerate(med))))
    print()


def resolve(site, glibc):
    """libc:near-SYM@0xOFF -> the function, from the host's libc6-dbg when the host has the
    guest's glibc build (Debian 12 both: the same package version)."""
    import re, subprocess
    m = re.match(r'libc:near-(\S+)@(0x[0-9a-f]+)$', site)
    if not m:
        return site
    try:
        ver = subprocess.run(['dpkg-query', '-W', '-f=${Version}', 'libc6-dbg'], capture_output=True,
                             text=True).stdout.strip()
        if not ver or ver not in glibc:
            return site
        note = subprocess.run(['readelf', '-n', '/usr/lib/x86_64-linux-gnu/libc.so.6'], capture_output=True,
                              text=True).stdout
        bid = re.search(r'Build ID: ([0-9a-f]+)', note).group(1)
        fn = subprocess.run(['addr2line', '-f', '-e', '/usr/lib/debug/.build-id/%s/%s.debug' % (bid[:2], bid[2:]),
                             m.group(2)], capture_output=True, text=True).stdout.split('\n')[0]
        return 'libc:%s' % fn if fn and fn != '??' else site
    except Exception:
        return site


def bench(args):
    ok = True
    if len(args) > 1:
        across(args)
    counted = None
    for a in args:
        label, path = a.split('=', 1)
        r = parse(path)
        # The strace round runs on the first kernel (BR_STRACE=1): the same userspace
        # elsewhere; a later boot's own counts (BRSTRACE=2: the other runtimes) come first.
        if counted is None and r['count']:
            counted = (label, dict(r['count']), r['site'])
        elif counted:
            own = set(w for w, s in r['count'])
            for k, v in counted[1].items():
                r['count'].setdefault(k, v)
            if not r['site']:
                r['site'] = counted[2]
            r['info'].append('syscall counts: %sfrom the %s boot (the same programs)' % (
                'of %s counted in this boot, the others ' % ' '.join(sorted(own)) if own else '', counted[0]))
        rounds = max((x[0] for bys in r['T'].values() for runs in bys.values() for x in runs), default=0)
        print('== kernel %s (%s), %d interleaved rounds (qemu TCG, -smp 1)' % (label, r['kernel'], rounds))
        for i in r['info']:
            if not i.startswith('round '):
                print('   ' + i)
        print('   sysshim-run decides: ' + r['decide'])
        have = [s for s in SETUPS if any(s in bys for w, bys in r['T'].items() if w != 'true')]
        print()
        if any(w != 'true' for w in r['T']):
            workloads(r, have)
        ok = ok and all(v[0] for v in outputs_same(r).values())
        # The cost of a preload per process start: /bin/true, each round's median of its runs.
        per_process(r)
        for x in r['warn']:
            print('  ' + x)
        print()
    return ok


def workloads(r, have):
    """The table of one kernel: medians under glibc alone, paired differences, counts."""
    # sysshim-run against LD_PRELOAD, in ms: what the wrapper itself costs in the
    # workload, to hold against its cost per process start (/bin/true).
    extra = 'auto' in have and 'preload' in have
    # sysshim-run against the floor (the empty preload of the same exports), paired: what
    # the library costs beyond what any preload costs.
    over_floor = 'auto' in have and 'empty' in have
    print('| workload | glibc alone (ms) | ' + ' | '.join({'empty': 'empty preload (floor)', 'preload': 'LD_PRELOAD', 'auto': 'sysshim-run',
          'always': 'sysshim-run --always', 'backport': 'glibc backport'}[s] for s in have) +
          (' | sysshim-run - LD_PRELOAD (ms)' if extra else '') +
          (' | sysshim-run over the floor' if over_floor else '') +
          ' | fstat / newfstatat(fd,"") / newfstatat(fd,NULL) / newfstatat(path) / statx(fd,"") / statx(fd,NULL) / statx(path): glibc -> preload' +
          (' -> backport' if 'backport' in have else '') + ' |')
    print('|---|---:|' + '---|' * (len(have) + extra + over_floor) + '---|')
    same = outputs_same(r)
    for w in [x for x in r['T'] if x != 'true']:
        bys = r['T'][w]
        g = per_round(bys.get('glibc', []))
        if not g:
            continue
        cells = [fmt_d(paired(g, per_round(bys.get(s, [])))) for s in have]
        if extra:
            x = diff_ms(per_round(bys.get('preload', [])), per_round(bys.get('auto', [])))
            cells.append('-' if x is None else '%+.2f [%+.2f, %+.2f]' % x)
        if over_floor:
            cells.append(fmt_d(paired(per_round(bys.get('empty', [])), per_round(bys.get('auto', [])))))
        cnt = []
        for s in ['glibc', 'preload', 'backport']:
            c = r['count'].get((w, s))
            if c:
                cnt.append('/'.join('%d' % x for x in c))
        print('| %s%s | %.0f | %s | %s |' % (w, '' if same.get(w, (True,))[0] else ' (OUTPUT DIFFERS)',
              st.median(g.values()) / 1e6, ' | '.join(cells), ' -> '.join(cnt) or '-'))
    print()


def per_process(r):
    """The cost of a preload per process start (/bin/true, each round's median of its
    runs), the raw calls' costs and the break-even; where the remaining calls come from."""
    t = r['T'].get('true', {})
    g = per_round(t.get('glibc', []))
    if g:
        print('Per process start (/bin/true, median of the rounds\' medians; difference to glibc alone, paired):')
        for s in ['empty', 'preload', 'auto', 'always', 'never', 'backport', 'before-preload', 'before-auto']:
            x = per_round(t.get(s, []))
            if not x:
                continue
            ks = sorted(set(g) & set(x))
            diffs = [x[k] - g[k] for k in ks]
            m = st.mean(diffs)
            h = tq(len(diffs) - 1) * st.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float('nan')
            print('  %-11s %8.0f us  %+7.0f us [%+.0f, %+.0f]' % (
                {'empty': 'floor .so', 'preload': 'LD_PRELOAD', 'auto': 'sysshim-run',
                 'always': '--always', 'never': '--never', 'backport': 'backport',
                 'before-preload': 'LD_PRELOAD, BR_NATIVE_BEFORE\'s',
                 'before-auto': 'sysshim-run, BR_NATIVE_BEFORE\'s'}[s],
                st.median(x.values()) / 1e3, m / 1e3, (m - h) / 1e3, (m + h) / 1e3))
        print('  %-11s %8.0f us' % ('glibc', st.median(g.values()) / 1e3))
        x = diff_ms(per_round(t.get('preload', [])), per_round(t.get('auto', [])))
        if x:
            print('  sysshim-run - LD_PRELOAD: %+.2f ms [%+.2f, %+.2f] per process start' % x)
        for a, b, what in [('before-preload', 'preload', 'LD_PRELOAD'), ('before-auto', 'auto', 'sysshim-run')]:
            x = diff_ms(per_round(t.get(a, [])), per_round(t.get(b, [])))
            if x:
                print('  %s, this tree - BR_NATIVE_BEFORE\'s: %+.3f ms [%+.3f, %+.3f] per process start' % ((what,) + x))
    if r['measure']:
        fs = st.median(x[0] for x in r['measure'])
        em = st.median(x[1] for x in r['measure'])
        save = em - fs
        print('Per fd stat call (raw syscalls, %d x 256 interleaved): fstat %.0f ns, newfstatat(fd, "", AT_EMPTY_PATH) %.0f ns: '
              'the preload saves %.0f ns per call' % (len(r['measure']), fs, em, save))
        p = per_round(t.get('preload', []))
        if g and p:
            cost = st.median([p[k] - g[k] for k in set(p) & set(g)])
            if save > 0:
                print('Break-even: %.0f us per process start / %.0f ns per call = %.0f fd stat calls per process'
                      % (cost / 1e3, save, cost / save))
            else:
                print('Break-even: none (the empty path costs no more than fstat here)')
    sites = r['site']
    if sites:
        print('Remaining newfstatat(fd, "") under the preload, by call site (strace -k, first frame outside the stat wrappers):')
        glibc = ' '.join(i for i in r['info'] if i.startswith('python'))
        for w, l in sites.items():
            print('  %-10s %s' % (w, '; '.join('%d %s' % (n, resolve(x, glibc)) for n, x in l)))


if __name__ == '__main__':
    if len(sys.argv) < 3 or sys.argv[1] not in ('bench', 'check'):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if (bench if sys.argv[1] == 'bench' else check)(sys.argv[2:]) else 1)
