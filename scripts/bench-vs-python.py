#!/usr/bin/env python3
"""Times `tailslice simulate` against the study's reference simulator.

Runs both on the same workload (default: 1,000,000 tasks of the study's mix,
CPython RNG, FIFO and 16 ms round-robin), takes the median wall time of a few
runs each, the peak memory (max RSS), checks that the figures agree, and
prints the speed ratio. A benchmark: it prints figures and fails only if the
two disagree or a command fails.

    scripts/bench-vs-python.py [--tasks N] [--runs K]
"""
import argparse, json, os, resource, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def reference_path():
    env = os.environ.get("TAILSLICE_REFERENCE")
    for p in ([env] if env else []) + [os.path.join(ROOT, "tests", "reference", "article_sim.py")]:
        if p and os.path.exists(p):
            return p
    sys.exit("article_sim.py not found: set TAILSLICE_REFERENCE")


def timed(cmd, runs):
    times, out = [], None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        times.append(time.perf_counter() - t)
    # ru_maxrss of children is the max over all finished children (KiB).
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return statistics.median(times), peak, json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "tailslice"], check=True, cwd=ROOT)
    exe = os.path.join(ROOT, "target", "release", "tailslice")
    n = str(a.tasks)
    # Python first, so the tailslice peak is read after it separately below.
    py_t, py_peak, py = timed([sys.executable, reference_path(), "--tasks", n], a.runs)
    ts_t, _, ts = timed([exe, "simulate", "--json", "--tasks", n], a.runs)
    # Peak memory of tailslice alone, from a fresh child measured by /proc.
    ts_peak = peak_rss([exe, "simulate", "--json", "--tasks", n])
    for r, o in zip(py["results"], ts["results"]):
        for m in ("mean", "p50", "p95", "p99", "max"):
            if abs(r[m] - o[m]) > 1e-9 * max(1.0, abs(r[m])):
                sys.exit(f"disagreement on {r['policy']} {m}: {r[m]} vs {o[m]}")
    print(f"{a.tasks} tasks, fifo + rr 16 ms, python RNG, median of {a.runs} runs")
    print(f"  reference article_sim.py : {py_t * 1e3:9.1f} ms   peak {py_peak / 1024:6.1f} MB")
    print(f"  tailslice simulate       : {ts_t * 1e3:9.1f} ms   peak {ts_peak / 1024:6.1f} MB")
    ratio = py_t / ts_t
    print(f"  speed-up                 : {ratio:9.1f}x  (goal >= 50x: {'met' if ratio >= 50 else 'NOT met'}; "
          f"memory goal < 300 MB: {'met' if ts_peak / 1024 < 300 else 'NOT met'})")
    print("  figures agree to 1e-9 (relative)")


def peak_rss(cmd):
    """Max RSS (KiB) of one run of cmd, via wait4's rusage."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return ru.ru_maxrss


if __name__ == "__main__":
    main()
