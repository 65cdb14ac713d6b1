"""Speed of husk from Python beside the CLI, in the same run (README "husk in Python").

    PYTHONPATH=build/python python3 tests/bench/python_bench.py build/husk ../shared/datasets/article-extraction-benchmark/html

Pages are read into memory first. Each figure is the median of five runs:
  CLI          husk extract -j1 over the directory, whole process, timed from outside
  process      Processor.process over the pages in memory, one thread
  process_many Processor.process_many(jobs=1) and (jobs=2)
  2 threads    two Python threads sharing one Processor, half the pages each
"""
import statistics
import subprocess
import sys
import threading
import time

import husk


def median_rate(pages, fn, runs=5):
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        rates.append(pages / (time.perf_counter() - start))
    return statistics.median(rates)


def main():
    binary, directory = sys.argv[1], sys.argv[2]
    pages = [(p["url"] or None, p["html"]) for p in husk.read(directory)]
    n = len(pages)
    processor = husk.Processor()
    processor.process(pages[0][1])  # warm up

    def cli():
        subprocess.run([binary, "extract", "-j1", directory, "-o", "/dev/null"], check=True,
                       stderr=subprocess.DEVNULL)

    def one():
        for url, html in pages:
            processor.process(html, url)

    def many(jobs):
        return lambda: sum(1 for _ in processor.process_many(pages, jobs=jobs))

    def threads():
        halves = [pages[0::2], pages[1::2]]
        workers = [threading.Thread(target=lambda part=part: [processor.process(h, u) for u, h in part])
                   for part in halves]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    rows = [("CLI husk extract -j1", median_rate(n, cli)),
            ("Processor.process, 1 thread", median_rate(n, one)),
            ("process_many(jobs=1)", median_rate(n, many(1))),
            ("process_many(jobs=2)", median_rate(n, many(2))),
            ("2 Python threads", median_rate(n, threads))]
    print(f"{n} pages")
    for name, rate in rows:
        print(f"{name:32s} {rate:8.1f} pages/s")
    base = rows[0][1]
    print(f"process / CLI = {rows[1][1] / base:.2f}; process_many(2) / process_many(1) = {rows[3][1] / rows[2][1]:.2f}; "
          f"2 threads / 1 = {rows[4][1] / rows[1][1]:.2f}")


if __name__ == "__main__":
    main()
