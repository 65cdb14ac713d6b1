#!/usr/bin/env python3
"""Constructed dev cases for husk dedup, with judged pairs for `husk eval dedup`.

  forms  80 weather-report data sheets of one layout that differ only in their
         figures (60 distinct, 20 with one row corrected: the judged duplicates);
         what chose numbers=keep as the default (README, "Numbers").
  reuse  139 documents, each a passage of 15-50% of an AEB article with up to 40%
         words of a WCXB dev article around it, beside the 139 sources; what chose
         the containment threshold (README, "Containment").

Usage: dedup_dev_cases.py DATASETS_DIR OUT_DIR   (writes forms.jsonl, forms-gold.jsonl,
reuse.jsonl, reuse-gold.jsonl; deterministic)
"""
import glob
import json
import os
import random
import re
import sys


def write(path, rows):
    with open(path, "w", encoding="utf-8") as out:
        for r in rows:
            out.write(json.dumps(r, ensure_ascii=False) + "\n")


def forms(out_dir):
    rng = random.Random(5)
    rows = ["Temperature", "Humidity", "Wind speed", "Pressure", "Rainfall"]
    docs, gold = [], []
    for f in range(60):
        lines = [f"Weather station {rng.randint(100, 999)} daily report for the period listed below"]
        for day in range(1, 15):
            lines.append(f"Day {day} " + " ".join(f"{r} {rng.randint(0, 999)}.{rng.randint(0, 9)}" for r in rows))
        docs.append({"id": f"form{f}", "url": f"http://met.example/{f}", "text": "\n".join(lines)})
        if f % 3 == 0:
            corrected = list(lines)
            corrected[5] = corrected[5].replace("1", "7")
            docs.append({"id": f"form{f}b", "url": f"http://met.example/{f}b", "text": "\n".join(corrected)})
            gold.append({"a": {"id": f"form{f}"}, "b": {"id": f"form{f}b"}, "label": 1})
        if f > 0:
            gold.append({"a": {"id": f"form{f - 1}"}, "b": {"id": f"form{f}"}, "label": 0})
    write(os.path.join(out_dir, "forms.jsonl"), docs)
    write(os.path.join(out_dir, "forms-gold.jsonl"), gold)


def reuse(datasets, out_dir):
    rng = random.Random(21)
    aeb = json.load(open(f"{datasets}/article-extraction-benchmark/ground-truth.json", encoding="utf-8"))
    sources = [(k, v["articleBody"]) for k, v in sorted(aeb.items()) if len(v["articleBody"].split()) > 300]
    fill = []
    for f in sorted(glob.glob(f"{datasets}/wcxb-dev/ground-truth/*.json")):
        g = json.load(open(f, encoding="utf-8"))
        text = (g.get("ground_truth") or {}).get("main_content") or ""
        kind = ((g.get("_internal") or {}).get("page_type") or {}).get("primary")
        if len(text.split()) > 400 and kind == "article":
            fill.append(text)
    rng.shuffle(fill)
    paras = lambda t: [p for p in re.split(r"\n\s*\n|\n", t) if p.strip()]
    docs = [{"id": "src-" + k[:10], "text": body} for k, body in sources]
    gold = []
    for i in range(min(len(sources), len(fill))):
        k, body = sources[i]
        ps = paras(body)
        n = max(1, int(len(ps) * rng.uniform(0.15, 0.5)))
        s = rng.randint(0, max(0, len(ps) - n))
        passage = ps[s:s + n]
        words = len(" ".join(passage).split())
        own, got = [], 0
        for p in paras(fill[i]):
            if got + len(p.split()) > rng.uniform(0, 0.4) * words:
                break
            own.append(p)
            got += len(p.split())
        at = rng.randint(0, len(own))
        docs.append({"id": f"reuse-{i}", "text": "\n\n".join(own[:at] + passage + own[at:])})
        gold.append({"a": {"id": f"reuse-{i}"}, "b": {"id": "src-" + k[:10]}, "label": 1})
        for j in rng.sample(range(len(sources)), 3):
            if j != i:
                gold.append({"a": {"id": f"reuse-{i}"}, "b": {"id": "src-" + sources[j][0][:10]}, "label": 0})
    write(os.path.join(out_dir, "reuse.jsonl"), docs)
    write(os.path.join(out_dir, "reuse-gold.jsonl"), gold)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    forms(sys.argv[2])
    reuse(sys.argv[1], sys.argv[2])
