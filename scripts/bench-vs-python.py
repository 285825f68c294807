#!/usr/bin/env python3
"""Times `tailslice simulate --json` against its floor and the study's code.

Three programs run the same experiment (default: 1,000,000 tasks of the
study's mix, CPython RNG, FIFO and 16 ms round-robin, one core):

  tailslice   `target/release/tailslice simulate --json` (the product)
  bare loop   `target/release/examples/bare_loop` (crate/examples/bare_loop.rs:
              the same workload, FIFO as a prefix sum, RR as a bare queue
              loop; no engine; the floor a special case can reach; the same
              threads and the same allocator as tailslice)
  python      `tests/reference/article_sim.py` (the study's simulator)

Each is run as a whole process, interleaved (one of each per round, so load
from elsewhere hits all three alike), and measured by wall time, peak memory
(max RSS from wait4), CPU time and page faults. It prints medians with the
spread (min-max), the ratios tailslice / bare loop (goals: 1.3x wall, 1.5x
memory) and the speed-up over article_sim.py, then the general event loop's
slices per second on a
multi-core Poisson workload (`tailslice bench --cores 8 --arrivals
poisson:0.9`, where the one-core fast path does not apply).

A benchmark: it exits non-zero only if the figures disagree (tailslice and
the bare loop must print the same JSON byte for byte; article_sim.py's
figures must agree to 1e-9 relative) or a command fails, never because a
goal is missed.

    scripts/bench-vs-python.py [--tasks N] [--runs K] [--python-runs K] [--no-build] [--tailslice PATH]
"""
import argparse, json, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WALL_GOAL, MEMORY_GOAL = 1.3, 1.5


def reference_path():
    env = os.environ.get("TAILSLICE_REFERENCE")
    for p in ([env] if env else []) + [os.path.join(ROOT, "tests", "reference", "article_sim.py")]:
        if p and os.path.exists(p):
            return p
    sys.exit("article_sim.py not found: set TAILSLICE_REFERENCE")


def measure(cmd):
    """(wall seconds, peak RSS in KiB, stdout, CPU seconds, page faults) of
    one run of cmd; the child is reaped with wait4 so its own rusage (not the
    maximum over all children) is read."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {err.decode(errors='replace')}")
    return wall, ru.ru_maxrss, out.decode(), ru.ru_utime + ru.ru_stime, ru.ru_minflt + ru.ru_majflt


def spread(xs, scale):
    xs = [x * scale for x in xs]
    return statistics.median(xs), min(xs), max(xs)


def check_agreement(ts_text, bare_text, py):
    if ts_text.strip() != bare_text.strip():
        sys.exit(f"tailslice and the bare loop disagree:\n  {ts_text.strip()}\n  {bare_text.strip()}")
    ts = json.loads(ts_text)
    if abs(ts["total_work_ms"] - py["total_work_ms"]) > 1e-9 * abs(py["total_work_ms"]):
        sys.exit(f"total work disagrees: {ts['total_work_ms']} vs {py['total_work_ms']}")
    for r, o in zip(py["results"], ts["results"]):
        assert r["policy"] == o["policy"], (r["policy"], o["policy"])
        for m in ("mean", "p50", "p95", "p99", "max", "done_within"):
            if abs(r[m] - o[m]) > 1e-9 * max(1.0, abs(r[m])):
                sys.exit(f"disagreement with article_sim.py on {r['policy']} {m}: {r[m]} vs {o[m]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=7, help="runs of tailslice and the bare loop")
    ap.add_argument("--python-runs", type=int, default=3)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--tailslice", metavar="PATH",
                    help="measure this tailslice binary instead of target/release/tailslice "
                         "(e.g. an older build, for before/after figures)")
    a = ap.parse_args()
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "tailslice",
                        "--bin", "tailslice", "--example", "bare_loop"], check=True, cwd=ROOT)
    exe = a.tailslice or os.path.join(ROOT, "target", "release", "tailslice")
    bare = os.path.join(ROOT, "target", "release", "examples", "bare_loop")
    n = str(a.tasks)
    cmds = {
        "tailslice": [exe, "simulate", "--json", "--tasks", n],
        "bare": [bare, "--tasks", n],
        "python": [sys.executable, reference_path(), "--tasks", n],
    }
    # Warm the page cache for the binaries (not measured).
    measure(cmds["tailslice"])
    measure(cmds["bare"])
    walls = {k: [] for k in cmds}
    peaks = {k: [] for k in cmds}
    cpus = {k: [] for k in cmds}
    faults = {k: [] for k in cmds}
    outs = {}
    for i in range(a.runs):
        order = ["tailslice", "bare"] if i % 2 == 0 else ["bare", "tailslice"]
        if i < a.python_runs:
            order.append("python")
        for k in order:
            w, m, out, cpu, flt = measure(cmds[k])
            walls[k].append(w)
            peaks[k].append(m)
            cpus[k].append(cpu)
            faults[k].append(flt)
            outs[k] = out
    check_agreement(outs["tailslice"], outs["bare"], json.loads(outs["python"]))

    print(f"{a.tasks} tasks, fifo + rr 16 ms, python RNG, one core; whole processes, "
          f"median (min-max) of {a.runs} interleaved runs ({a.python_runs} for python)")
    names = {"tailslice": "tailslice simulate --json", "bare": "bare loop (examples/bare_loop)",
             "python": "article_sim.py"}
    med = {}
    for k in ("tailslice", "bare", "python"):
        wm, wlo, whi = spread(walls[k], 1e3)
        mm, mlo, mhi = spread(peaks[k], 1 / 1024)
        med[k] = (wm, mm)
        cm = statistics.median(cpus[k]) * 1e3
        fm = statistics.median(faults[k])
        print(f"  {names[k]:<32} {wm:8.1f} ms ({wlo:.1f}-{whi:.1f})   peak {mm:6.1f} MB ({mlo:.1f}-{mhi:.1f})"
              f"   CPU {cm:.1f} ms   {fm:.0f} page faults")
    # Ratios per round (tailslice and the bare loop ran back to back), then
    # their median: steadier than a ratio of medians on a shared machine.
    wall_ratios = sorted(t / b for t, b in zip(walls["tailslice"], walls["bare"]))
    mem_ratios = sorted(t / b for t, b in zip(peaks["tailslice"], peaks["bare"]))
    wr, mr = statistics.median(wall_ratios), statistics.median(mem_ratios)
    verdict = lambda r, g: "met" if r <= g else "NOT met"
    print(f"  tailslice / bare loop, wall    {wr:6.2f}x  (per round {wall_ratios[0]:.2f}-{wall_ratios[-1]:.2f}; "
          f"goal <= {WALL_GOAL}x: {verdict(wr, WALL_GOAL)})")
    print(f"  tailslice / bare loop, memory  {mr:6.2f}x  (per round {mem_ratios[0]:.2f}-{mem_ratios[-1]:.2f}; "
          f"goal <= {MEMORY_GOAL}x: {verdict(mr, MEMORY_GOAL)})")
    cpu_ratios = sorted(t / b for t, b in zip(cpus["tailslice"], cpus["bare"]))
    print(f"  tailslice / bare loop, CPU     {statistics.median(cpu_ratios):6.2f}x  (user + system time; "
          f"steadier than wall when other work shares the cores)")
    print(f"  speed-up over article_sim.py   {med['python'][0] / med['tailslice'][0]:6.1f}x  "
          f"(bare loop {med['python'][0] / med['bare'][0]:.1f}x)")
    print("  figures agree: tailslice = bare loop byte for byte; article_sim.py to 1e-9 (relative)")

    # The general loop (more than one core: no fast path) on arrivals over time.
    general = [exe, "bench", "--json", "--repeat", "3", "--tasks", n, "--cores", "8",
               "--arrivals", "poisson:0.9"]
    print(f"general event loop, {a.tasks} tasks, --cores 8 --arrivals poisson:0.9 (tailslice bench, median of 3):")
    p = subprocess.run(general, capture_output=True, text=True)
    if p.returncode != 0:
        # Builds before `bench --json` existed.
        print(f"  not measured: {p.stderr.strip()}")
        return
    for ph in json.loads(p.stdout)["phases"]:
        if ph["slices"]:
            rate = ph["slices"] / ph["median_ms"] / 1e3
            print(f"  {ph['name']:<16} {ph['median_ms']:8.1f} ms  {ph['slices']} slices  {rate:5.1f} M slices/s")


if __name__ == "__main__":
    main()
