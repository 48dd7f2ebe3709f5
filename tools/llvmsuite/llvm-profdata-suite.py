#!/usr/bin/env python3
"""Run LLVM's regression-test RUN lines of llvm-profdata (or llvm-profgen)
with the real tool of an LLVM release and with profgen, and compare the
tools' answers (not FileCheck's): exit status, stdout, the class of stderr,
and the files written (bytes, else llvm's text rendering). LLVM's tests are
not part of this repository: LLVM_TESTS names a directory laid out as
llvm-project's (llvm/test/tools/llvm-profdata with its Inputs/, and
llvm/test/tools/llvm-profgen), of the release compared with, or the
tool's test directory itself. A RUN line
the LLVM tool itself fails, or one naming an input the directory lacks, is
skipped. When the release is 19, profgen runs show and overlap with
--llvm-version=19 and merge with --output-version=12. README.md beside this file tells how to get the tests.
With --tool=compiler-rt it runs compiler-rt/test/profile's tests: programs
built with clang-N and run, their llvm-profdata calls compared.
usage: LLVM_TESTS=DIR PROFGEN=bin/profgen llvm-profdata-suite.py
       [--llvm=22|19] [--tool=llvm-profdata|llvm-profgen|compiler-rt] [-v] [test-name-substring ...]"""
import os, re, sys, glob, shutil, subprocess, json, hashlib

ARGS = sys.argv[1:]

def option(name, default):
    for a in list(ARGS):
        if a.startswith('--' + name + '='):
            ARGS.remove(a)
            return a.split('=', 1)[1]
    return default

VERSION = option('llvm', os.environ.get('LLVM_VERSION', '22'))
SUITE = option('tool', 'llvm-profdata')
# compiler-rt's profile tests build programs with clang-N and run them;
# their llvm-profdata calls are the cases.
COMPILER_RT = SUITE == 'compiler-rt'
TOOL = 'llvm-profdata' if COMPILER_RT else SUITE
TESTS = os.environ.get('LLVM_TESTS', '/work/llvm-tests')
TESTDIR = os.path.join(TESTS, 'compiler-rt/test/profile' if COMPILER_RT else 'llvm/test/tools/' + TOOL)
if not os.path.isdir(TESTDIR):  # LLVM_TESTS names the tool's own test directory
    TESTDIR = TESTS
ROOT = os.environ.get('SUITE_WORK', '/tmp/pdsweep') + '/' + SUITE + '-' + VERSION
PROFGEN = os.path.abspath(os.environ.get('PROFGEN', 'bin/profgen'))
LLVM = os.environ.get('LLVM_PROFDATA', 'llvm-profdata-' + VERSION)
LLVM_TOOL = LLVM if TOOL == 'llvm-profdata' else TOOL + '-' + VERSION
SIDES = {'L': LLVM_TOOL, 'P': PROFGEN}

SHIM = r'''#!/bin/bash
# records one invocation of the tool under test
n=1; while ! mkdir "$SHIMLOG/$n" 2>/dev/null; do n=$((n+1)); done
d="$SHIMLOG/$n"
printf '%s\n' "$@" > "$d/argv"
if [ ! -t 0 ] && [ -p /dev/stdin ]; then cat > "$d/stdin"; exec 0< "$d/stdin"; fi
__ARGS__
"__REAL__" "$@" > "$d/stdout" 2> "$d/stderr"
rc=$?
echo $rc > "$d/rc"
cat "$d/stdout"; cat "$d/stderr" >&2
exit $rc
'''
NOT = '''#!/bin/bash
if [ "$1" = "--crash" ]; then shift; fi
"$@"; rc=$?; [ $rc -ne 0 ]
'''
FILECHECK = '#!/bin/bash\ncat > /dev/null\nexit 0\n'
COUNT = '#!/bin/bash\ncat > /dev/null\nexit 0\n'

def run_lines(path):
    lines, cur = [], None
    for raw in open(path, encoding='utf-8', errors='surrogateescape'):
        m = re.search(r'RUN:(.*)$', raw.rstrip('\n'))
        if not m:
            continue
        s = m.group(1).strip()
        if cur is not None:
            cur += ' ' + s
        else:
            cur = s
        if cur.endswith('\\'):
            cur = cur[:-1]
            continue
        lines.append(cur)
        cur = None
    return lines

def shim_args(side):
    """Bash that adjusts profgen's arguments for LLVM 19: show and overlap
    print llvm-profdata-19's text with --llvm-version=19, merge writes its
    indexed version 12 with --output-version=12 (profgen writes 22's 13)."""
    if side != 'P' or VERSION != '19' or TOOL != 'llvm-profdata':
        return ''
    return ('case "$1" in show|overlap) c="$1"; shift; set -- "$c" --llvm-version=19 "$@";;\n'
            '  merge) case " $* " in *" --output-version"*) ;; *) shift; set -- merge --output-version=12 "$@";; esac;; esac')

def setup_side(side, tname):
    base = os.path.join(ROOT, side)
    d = os.path.join(base, tname)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, 'out'))
    binp = os.path.join(base, 'bin')
    os.makedirs(binp, exist_ok=True)
    shim = SHIM.replace('__REAL__', SIDES[side]).replace('__ARGS__', shim_args(side))
    tools = [(TOOL, shim)]
    if TOOL != 'llvm-profdata':  # profiles a profgen test writes are read by the real llvm-profdata
        tools.append(('llvm-profdata', SHIM.replace('__REAL__', LLVM).replace('__ARGS__', '')))
    for name, body in tools + [
                       ('split-file', '#!/bin/bash\nexec split-file-%s "$@"\n' % VERSION), ('not', NOT), ('FileCheck', FILECHECK), ('count', COUNT)]:
        p = os.path.join(binp, name)
        open(p, 'w').write(body)
        os.chmod(p, 0o755)
    return d, binp

# compiler-rt's lit substitutions of the profile tests, longest first.
CLANG_SUBST = [
    ('%clangxx_profgen=', '-fprofile-instr-generate='), ('%clang_profgen=', '-fprofile-instr-generate='),
    ('%clangxx_pgogen=', '-fprofile-generate='), ('%clang_pgogen=', '-fprofile-generate='),
    ('%clangxx_profgen', '-fprofile-instr-generate'), ('%clang_profgen', '-fprofile-instr-generate'),
    ('%clangxx_pgogen', '-fprofile-generate'), ('%clang_pgogen', '-fprofile-generate'),
    ('%clangxx_cspgogen', '-fcs-profile-generate'), ('%clang_cspgogen', '-fcs-profile-generate'),
    ('%clangxx_profuse=', '-fprofile-instr-use='), ('%clang_profuse=', '-fprofile-instr-use='),
    ('%clangxx_pgouse=', '-fprofile-use='), ('%clang_pgouse=', '-fprofile-use='),
]

def clang_subst(cmd):
    for key, flag in CLANG_SUBST:
        cxx = 'xx' if key.startswith('%clangxx') else ''
        cmd = cmd.replace(key, 'clang%s-%s %s' % ('++' if cxx else '', VERSION, flag))
    cmd = re.sub(r'%clangxx\b', 'clang++-' + VERSION, cmd)
    cmd = re.sub(r'%clang\b', 'clang-' + VERSION, cmd)
    return re.sub(r'%run\b', '', cmd)

def subst(cmd, test, d):
    t = os.path.join(d, 'out', 't')
    cmd = cmd.replace('%python', 'python3')
    if COMPILER_RT:
        cmd = clang_subst(cmd)
    here = os.path.dirname(test) if COMPILER_RT else TESTDIR
    cmd = cmd.replace('%S', here).replace('%p', here)
    cmd = cmd.replace('%s', test)
    cmd = cmd.replace('%t', t).replace('%T', os.path.join(d, 'out'))
    cmd = re.sub(r'\b' + TOOL + r'(\.exe)?\b', TOOL, cmd)
    return cmd

def snapshot(d):
    snap = {}
    for r, _, fs in os.walk(os.path.join(d, 'out')):
        for f in fs:
            p = os.path.join(r, f)
            try:
                st = os.stat(p)
            except OSError:
                continue
            snap[os.path.relpath(p, d)] = (st.st_size, st.st_mtime_ns, digest(p))
    return snap

def digest(p):
    try:
        return hashlib.sha1(open(p, 'rb').read()).hexdigest()
    except OSError:
        return None

def missing_inputs(cmd):
    miss = []
    for m in re.finditer(r'(?:%p|%S)/(Inputs/[^\s,;|>)\'"]+)', cmd):
        p = os.path.join(TESTDIR, m.group(1))
        if '*' in p or 'does-not-exist' in p or 'missing' in p.lower():
            continue
        if not os.path.exists(p):
            miss.append(m.group(1))
    return miss

def norm(text, d):
    text = text.replace(d, '<T>').replace(TESTDIR, '<S>')
    text = text.replace(LLVM_TOOL, 'TOOL').replace(PROFGEN, 'TOOL')
    text = re.sub(r'\b(llvm-prof(data|gen)(-[0-9]+)?|profgen)\b', 'TOOL', text)
    return text

def stderr_class(s, rc):
    """'failed' when the tool failed (its message is its error), else
    'warning' if stderr has a diagnostic (profgen's summary lines aside),
    else ''."""
    if rc != '0': return 'failed'
    # profgen's own informational lines (its summary, empty inputs skipped)
    s = '\n'.join(l for l in s.splitlines() if not (l.startswith('TOOL merge: ') and 'warning' not in l))
    return 'warning' if s.strip() else ''
    if re.search(r'\bwarning\b', s, re.I): return 'warning'
    return ''


def invocations(d):
    logd = os.path.join(d, 'log')
    res = []
    n = len([x for x in os.listdir(logd) if x.isdigit()]) if os.path.isdir(logd) else 0
    for i in range(1, n + 1):
        g = lambda f: open(os.path.join(logd, str(i), f), 'rb').read().decode('utf-8', 'replace') if os.path.exists(os.path.join(logd, str(i), f)) else ''
        res.append({'argv': g('argv'), 'rc': g('rc').strip(), 'stdout': norm(g('stdout'), d), 'stderr': norm(g('stderr'), d)})
    shutil.rmtree(logd, ignore_errors=True)
    # pipeline members start in any order: pair them by command line
    res.sort(key=lambda r: norm(r['argv'], d))
    return res

def render(p):
    """llvm-profdata's text rendering of a profile file (instr, else sample)."""
    for args in (['show', '--all-functions', '--counts', '--text', '--ic-targets', '--memop-sizes', p],
                 ['merge', '--sample', '--text', p, '-o', '-'],
                 ['show', '--sample', '--show-prof-sym-list', '--show-sec-info-only', p]):
        r = subprocess.run([LLVM] + args, capture_output=True)
        if r.returncode == 0:
            return ' '.join(args[:2]), r.stdout
    return None, None

def run_line(side, d, binp, cmd):
    env = dict(os.environ)
    env['PATH'] = binp + ':' + env['PATH']
    env['SHIMLOG'] = os.path.join(d, 'log')
    os.makedirs(env['SHIMLOG'], exist_ok=True)
    # lit's shell keeps a RUN line's cd for the lines after it: so does
    # the cwd file of each side
    cwdfile = os.path.join(d, 'cwd')
    cwd = open(cwdfile).read().strip() if os.path.exists(cwdfile) else ''
    if not os.path.isdir(cwd):
        cwd = os.path.join(d, 'out')
    r = subprocess.run(['bash', '-c', 'set -o pipefail; ' + cmd + '\nrc=$?; pwd > "$CWDFILE"; exit $rc'],
                       cwd=cwd, env=dict(env, CWDFILE=cwdfile), capture_output=True, timeout=120)
    return r.returncode

def compare_case(cmd, L, P):
    diffs = []
    li, pi = L['inv'], P['inv']
    if len(li) != len(pi):
        diffs.append('invocations %d vs %d' % (len(li), len(pi)))
    for a, b in zip(li, pi):
        if (a['rc'] == '0') != (b['rc'] == '0'):
            diffs.append('exit %s vs %s' % (a['rc'], b['rc']))
        if a['stdout'] != b['stdout']:
            diffs.append('stdout')
        if stderr_class(a['stderr'], a['rc']) != stderr_class(b['stderr'], b['rc']):
            diffs.append('stderr-class %r vs %r' % (stderr_class(a['stderr'], a['rc']), stderr_class(b['stderr'], b['rc'])))
    # output files written by this line
    lo, po = L['outs'], P['outs']
    for f in sorted(set(lo) | set(po)):
        if f not in lo or f not in po:
            diffs.append('file %s only on %s' % (f, 'L' if f in lo else 'P'))
            continue
        lp, pp = os.path.join(L['d'], f), os.path.join(P['d'], f)
        if lo[f][2] == po[f][2]:
            continue
        a, b = open(lp, 'rb').read(), open(pp, 'rb').read()
        if norm(a.decode('latin1'), L['d']) == norm(b.decode('latin1'), P['d']):
            continue
        how, ra = render(lp)
        how2, rb = render(pp)
        if ra is not None and ra == rb:
            L.setdefault('notes', []).append('file %s bytes differ, %s same' % (f, how))
            continue
        diffs.append('file %s differs' % f)
    return diffs

def run_test(test, verbose):
    tname = os.path.relpath(test, TESTDIR).replace("/", "_")
    sides = {}
    for s in SIDES:
        d, binp = setup_side(s, tname)
        sides[s] = (d, binp)
    cases = []
    for idx, raw in enumerate(run_lines(test)):
        miss = missing_inputs(raw)
        state = {}
        for s, (d, binp) in sides.items():
            cmd = subst(raw, test, d)
            before = snapshot(d)
            try:
                rc = run_line(s, d, binp, cmd)
            except subprocess.TimeoutExpired:
                rc = 'timeout'
            after = snapshot(d)
            outs = {f: v for f, v in after.items() if before.get(f) != v}
            state[s] = {'rc': rc, 'inv': invocations(d), 'outs': outs, 'd': d}
        if not state['L']['inv']:
            continue  # not an llvm-profdata case
        c = {'test': tname, 'line': idx + 1, 'cmd': raw}
        if miss:
            c['status'] = 'skip-missing-input'
            c['why'] = ','.join(miss)
        elif state['L']['rc'] != 0:
            c['status'] = 'skip-llvm-fails-run-line'
            c['why'] = 'llvm rc=%s: %s' % (state['L']['rc'], ' | '.join(i['stderr'].strip()[:150] for i in state['L']['inv']))
        else:
            diffs = compare_case(raw, state['L'], state['P'])
            c['status'] = 'match' if not diffs else 'mismatch'
            c['why'] = '; '.join(diffs)
            c['notes'] = state['L'].get('notes', [])
            if diffs:
                c['detail'] = [(a['argv'].replace('\n', ' '), a['rc'], a['stdout'][:3000], a['stderr'][:800], b['rc'], b['stdout'][:3000], b['stderr'][:800]) for a, b in zip(state['L']['inv'], state['P']['inv'])]
        cases.append(c)
    return cases

def main():
    args = ARGS
    verbose = '-v' in args
    args = [a for a in args if a != '-v']
    tests = sorted(p for p in glob.glob(os.path.join(TESTDIR, '*')) if os.path.isfile(p) and not p.endswith('.cfg'))
    if COMPILER_RT:  # the Linux and Posix folders too, not Inputs
        tests = sorted(p for p in glob.glob(os.path.join(TESTDIR, '**', '*.c*'), recursive=True)
                       if '/Inputs/' not in p and not re.search(r'/(AIX|Darwin|Windows)/', p))
    if args:
        tests = [t for t in tests if any(a in os.path.basename(t) for a in args)]
    allc = []
    for t in tests:
        allc += run_test(t, verbose)
    counts = {}
    for c in allc:
        counts[c['status']] = counts.get(c['status'], 0) + 1
    for c in allc:
        if c['status'] == 'mismatch':
            print('MISMATCH %s:%d: %s\n    -> %s' % (c['test'], c['line'], c['cmd'][:200], c['why']))
            if verbose:
                for det in c['detail']:
                    print('   argv:', det[0])
                    print('   L rc=%s stderr=%r' % (det[1], det[3]))
                    print('   P rc=%s stderr=%r' % (det[4], det[6]))
                    if det[2] != det[5]:
                        import difflib
                        for dl in list(difflib.unified_diff(det[2].splitlines(), det[5].splitlines(), 'llvm', 'profgen', lineterm='', n=1))[:40]:
                            print('     ' + dl)
    if verbose:
        for c in allc:
            if c['status'].startswith('skip'):
                print('SKIP %s:%d %s: %s' % (c['test'], c['line'], c['status'], c['why'][:200]))
    os.makedirs(ROOT, exist_ok=True)
    json.dump(allc, open(os.path.join(ROOT, 'results.json'), 'w'), indent=1)
    ran = counts.get('match', 0) + counts.get('mismatch', 0)
    print('%s-%s: cases run: %d, match: %d, mismatch: %d; skipped: %s' % (SUITE, VERSION, ran, counts.get('match', 0), counts.get('mismatch', 0),
          {k: v for k, v in counts.items() if k.startswith('skip')}))

if __name__ == '__main__':
    main()
