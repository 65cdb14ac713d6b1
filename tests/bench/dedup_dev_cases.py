#!/usr/bin/env python3
"""Constructed dev cases for husk dedup, with judged pairs for `husk eval dedup`.

  forms  80 weather-report data sheets of one layout that differ only in their
         figures (60 distinct, 20 with one row corrected: the judged duplicates);
         what chose numbers=keep as the default (README, "Numbers").
  reuse  139 documents, each a passage of 15-50% of an AEB article with up to 40%
         words of a WCXB dev article around it, beside the 139 sources; what chose
         the containment threshold (README, "Containment").

  revised  reuse as it is found in the wild: for each of 129 AEB articles one
         text of 150-300 words that is a cut passage of it, a lightly revised
         copy (8% of words replaced, two sentences swapped), a heavily revised
         one (20% replaced, a quarter of the sentences dropped, the rest
         shuffled, a third more of another text's), a quotation of 20-45 words
         inside another text, a paragraph of 60-120 words inside a longer
         article, or an unrelated text of the same length (the negative);
         each judged against its article and three others, and 157 passages
         of daniel-dev pages judged against another page of the same site
         (negatives that share the site's phrasing); what chose the
         containment default (docs/cli.md, "Containment").

  frames  pages of one site that share its frame (navigation, footers, notices)
         around different items: for each original page of the near-duplicate
         set (3 hosts) its frame (the lines of its whole text, husk extract
         --extractor fulltext, that its clean text, husk extract, lacks) around
         a short item (20-80 words of an AEB or WCXB text), and another item on
         the frame of the host's next page: two pages of one site; every third
         first item again, two of its words changed, on the
         same frame with a tenth of the frame's lines left out (a
         near-duplicate). Judged: the two items (different pages) and
         each copy against its item; what chose --host-lines (docs/cli.md,
         "Frame lines").

Usage: dedup_dev_cases.py DATASETS_DIR OUT_DIR   (writes forms.jsonl, forms-gold.jsonl,
reuse.jsonl, reuse-gold.jsonl, revised.jsonl, revised-gold.jsonl, and near-dup-pages.jsonl,
the near-duplicate set's pages as {"id", "url", "html"} lines; deterministic)
       dedup_dev_cases.py --frames DATASETS_DIR OUT_DIR   (after husk extract wrote OUT_DIR/full.jsonl
with --extractor fulltext and OUT_DIR/clean.jsonl from near-dup-pages.jsonl: writes
frames.jsonl, frames-gold.jsonl)
"""
import gzip
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


def aeb_articles(datasets, min_words):
    """(key, body) of the AEB articles longer than min_words words, by key."""
    aeb = json.load(open(f"{datasets}/article-extraction-benchmark/ground-truth.json", encoding="utf-8"))
    return [(k, v["articleBody"]) for k, v in sorted(aeb.items()) if len(v["articleBody"].split()) > min_words]


def wcxb_texts(datasets, min_words, articles_only):
    """The gold texts of wcxb-dev longer than min_words words (of article pages only, when asked), by file."""
    out = []
    for f in sorted(glob.glob(f"{datasets}/wcxb-dev/ground-truth/*.json")):
        g = json.load(open(f, encoding="utf-8"))
        text = (g.get("ground_truth") or {}).get("main_content") or ""
        kind = ((g.get("_internal") or {}).get("page_type") or {}).get("primary")
        if len(text.split()) > min_words and (kind == "article" or not articles_only):
            out.append(text)
    return out


def reuse(datasets, out_dir):
    rng = random.Random(21)
    sources = aeb_articles(datasets, 300)
    fill = wcxb_texts(datasets, 400, True)
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


def revised(datasets, out_dir):
    rng = random.Random(33)
    sources = aeb_articles(datasets, 350)
    filler = wcxb_texts(datasets, 300, False)
    rng.shuffle(filler)
    vocab = [w for t in filler[:200] for w in t.split() if w.isalpha()]
    sents = lambda t: [x for x in re.split(r"(?<=[.!?])\s+", t.replace("\n", " ")) if x.strip()]

    def passage(body, lo, hi):
        ss, n = sents(body), rng.randint(lo, hi)
        out = []
        for x in ss[rng.randint(0, max(0, len(ss) - 5)):]:
            out.append(x)
            if len(" ".join(out).split()) >= n:
                break
        return out

    def replaced(ss, share):
        return [" ".join(rng.choice(vocab) if rng.random() < share else w for w in x.split()) for x in ss]

    def inside(own, copied):
        at = rng.randint(0, len(own))
        return own[:at] + copied + own[at:]

    docs = [{"id": f"src-{i}", "text": body} for i, (_, body) in enumerate(sources)]
    gold = []
    kinds = ["cut", "light", "heavy", "non", "quote", "paragraph"]
    for i, (_, body) in enumerate(sources):
        kind = kinds[i % len(kinds)]
        if kind == "non":
            ss = passage(sources[(i + 7) % len(sources)][1], 150, 300)
        elif kind == "quote":
            ss = inside(sents(filler[(i + 90) % len(filler)])[:rng.randint(8, 14)], passage(body, 20, 45))
        elif kind == "paragraph":
            ss = inside(sents(filler[(i + 120) % len(filler)])[:rng.randint(20, 40)], passage(body, 60, 120))
        else:
            ss = passage(body, 150, 300)
            if kind == "cut":
                for _ in range(rng.randint(0, 2)):
                    if len(ss) > 3:
                        ss.pop(rng.randrange(len(ss)))
            elif kind == "light":
                ss = replaced(ss, 0.08)
                if len(ss) > 3:
                    a = rng.randrange(len(ss) - 1)
                    ss[a], ss[a + 1] = ss[a + 1], ss[a]
            else:
                ss = [x for x in replaced(ss, 0.2) if rng.random() > 0.25] or ss[:1]
                rng.shuffle(ss)
                ss += sents(filler[i % len(filler)])[:max(1, len(ss) // 3)]
        own = sents(filler[(i + 50) % len(filler)])[:rng.randint(0, 2)]
        docs.append({"id": f"ans-{i}", "text": " ".join(own[:1] + ss + own[1:])})
        gold.append({"a": {"id": f"ans-{i}"}, "b": {"id": f"src-{i}"}, "label": 0 if kind == "non" else 1,
                     "variant": kind})
        for j in rng.sample(range(len(sources)), 3):
            if j != i:
                gold.append({"a": {"id": f"ans-{i}"}, "b": {"id": f"src-{j}"}, "label": 0, "variant": "other"})
    by_host = {}
    for f in sorted(glob.glob(f"{datasets}/daniel-dev/ground-truth/*.json")):
        g = json.load(open(f, encoding="utf-8"))
        text = (g.get("ground_truth") or {}).get("main_content") or ""
        if len(text.split()) > 200:
            by_host.setdefault(g.get("host"), []).append((os.path.basename(f)[:-5], text))
    for _, pages in sorted(by_host.items()):
        for a in range(0, len(pages) - 1, 2):
            (ia, ta), (ib, tb) = pages[a], pages[a + 1]
            docs.append({"id": "site-" + ia, "text": " ".join(passage(ta, 100, 250))})
            docs.append({"id": "full-" + ib, "text": tb})
            gold.append({"a": {"id": "site-" + ia}, "b": {"id": "full-" + ib}, "label": 0, "variant": "same-site"})
    write(os.path.join(out_dir, "revised.jsonl"), docs)
    write(os.path.join(out_dir, "revised-gold.jsonl"), gold)


def near_dup_pages(datasets, out_dir):
    root = f"{datasets}/near-dup-html-pairs"
    urls = {}
    for line in open(f"{root}/pairs.jsonl", encoding="utf-8"):
        pair = json.loads(line)
        for side in ("a", "b"):
            urls[pair[side]["id"]] = pair[side]["url"]
    rows = []
    for f in sorted(glob.glob(f"{root}/html/*.html.gz")):
        key = os.path.basename(f)[:-len(".html.gz")]
        rows.append({"id": key, "url": urls.get(key, ""), "html": gzip.open(f).read().decode("utf-8", "replace")})
    write(os.path.join(out_dir, "near-dup-pages.jsonl"), rows)


def frames(datasets, out_dir):
    rng = random.Random(47)
    read = lambda name: {r["id"]: r for r in map(json.loads, open(os.path.join(out_dir, name), encoding="utf-8"))}
    full, clean = read("full.jsonl"), read("clean.jsonl")
    items = [body for _, body in aeb_articles(datasets, 200)] + wcxb_texts(datasets, 200, False)
    rng.shuffle(items)
    lines = lambda t: [x.strip() for x in (t or "").split("\n") if x.strip()]
    by_host = {}
    for key in sorted(full):
        if not key.endswith("_original") or key not in clean:
            continue
        own = set(lines(clean[key]["text"]))
        whole = lines(full[key]["text"])
        inside = [i for i, x in enumerate(whole) if x in own]
        if not inside:
            continue
        head, tail = [x for x in whole[:inside[0]] if x not in own], [x for x in whole[inside[-1] + 1:] if x not in own]
        host = re.sub(r"^https?://([^/]+).*$", r"\1", full[key]["url"])
        by_host.setdefault(host, []).append((head, tail))
    docs, gold = [], []
    n = 0

    def item():
        nonlocal n
        words = items[n % len(items)].split()
        n += 1
        return " ".join(words[:rng.randint(20, 80)])

    for host, frame_list in sorted(by_host.items()):
        for f, (head, tail) in enumerate(frame_list):
            # Two items on one frame: different pages of the site.
            first, second = item(), item()
            doc = f"{host}-{f}"
            other_head, other_tail = frame_list[(f + 1) % len(frame_list)]
            for suffix, text, h, t in (("a", first, head, tail), ("b", second, other_head, other_tail)):
                docs.append({"id": f"{doc}{suffix}", "url": f"https://{host}/item/{f}{suffix}",
                             "text": "\n".join(h + [text] + t)})
            gold.append({"a": {"id": doc + "a"}, "b": {"id": doc + "b"}, "label": 0, "variant": "same-frame"})
            if f % 3 == 0:
                edited = first.split()
                for _ in range(2):
                    edited[rng.randrange(len(edited))] = rng.choice(second.split())
                keep = lambda part: [x for x in part if rng.random() > 0.1]
                docs.append({"id": doc + "a-copy", "url": f"https://{host}/item/{f}a/copy",
                             "text": "\n".join(keep(head) + [" ".join(edited)] + keep(tail))})
                gold.append({"a": {"id": doc + "a"}, "b": {"id": doc + "a-copy"}, "label": 1, "variant": "copy"})
    write(os.path.join(out_dir, "frames.jsonl"), docs)
    write(os.path.join(out_dir, "frames-gold.jsonl"), gold)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--frames":
        frames(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    forms(sys.argv[2])
    reuse(sys.argv[1], sys.argv[2])
    revised(sys.argv[1], sys.argv[2])
    near_dup_pages(sys.argv[1], sys.argv[2])
