#!/usr/bin/env python3
"""Writes a generated browser trace of about MB megabytes (not committed:
the benchmarks make it when they run).

    scripts/gen-trace.py MB OUT.json

A renderer main thread (pid 20, tid 20, named CrRendererMain, the main
frame's) with RunTask events of 0.05 to 60 ms, each with a first child
(FunctionCall), 0.1 ms apart; every fourth task on a second thread of the
same process. The same shape as the page tests' generated traces.
"""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-trace.py MB OUT.json")
    target = int(float(sys.argv[1]) * 1_000_000)
    with open(sys.argv[2], "w") as out:
        written = out.write(
            '{"traceEvents":[{"args":{"data":{"frames":[{"frame":"M","processId":20}]}},'
            '"name":"TracingStartedInBrowser","ph":"I","pid":1,"tid":1,"ts":1e11},'
            '{"args":{"name":"CrRendererMain"},"name":"thread_name","ph":"M","pid":20,"tid":20},'
        )
        ts = 100_000_000_000
        i = 0
        chunk = []
        while written < target:
            d = 50 + (i * 7919) % 60_000 * (i % 3) // 2
            tid = 31 if i % 4 == 3 else 20
            line = (
                f'{{"args":{{}},"cat":"disabled-by-default-devtools.timeline","name":"RunTask",'
                f'"ph":"X","pid":20,"tid":{tid},"ts":{ts},"dur":{d},"tdur":{d}}},'
                f'{{"args":{{"data":{{"frame":"M","url":"https://example.com/app.js"}}}},'
                f'"cat":"devtools.timeline","name":"FunctionCall","ph":"X","pid":20,"tid":{tid},'
                f'"ts":{ts + 1},"dur":{d // 2}}},'
            )
            chunk.append(line)
            written += len(line)
            if len(chunk) >= 10_000:
                out.write("".join(chunk))
                chunk = []
            ts += d + 100
            i += 1
        out.write("".join(chunk))
        out.write('{"name":"end","ph":"I","pid":1,"tid":1,"ts":1e11}]}')


if __name__ == "__main__":
    main()
