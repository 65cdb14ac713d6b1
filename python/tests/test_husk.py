"""husk from Python: the same records, signatures and clusters as the CLI; errors, never crashes."""
import json
import os
import re
import subprocess
import sys
import threading
from html import unescape
from pathlib import Path

import pytest

import husk

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("HUSK_BINARY", str(ROOT / "build" / "husk"))
SHARED = Path(os.environ.get("HUSK_SHARED", ROOT.parent / "shared"))
AEB = SHARED / "datasets" / "article-extraction-benchmark" / "html"
NEAR_DUP = SHARED / "datasets" / "near-dup-html-pairs" / "html"


def cli(*args):
    out = subprocess.run([BINARY, *map(str, args)], check=True, capture_output=True).stdout.decode()
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def need(path):
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing")
        pytest.skip(f"{path} is absent")


def test_extract_reads_bytes_and_str():
    page = (ROOT / "fixtures" / "languages" / "fr.html").read_bytes()
    from_bytes = husk.extract(page)
    from_str = husk.extract(page.decode("utf-8"))
    assert from_bytes["text"].startswith("Après trois jours de fortes pluies")
    assert from_bytes["text"] == from_str["text"]
    assert from_bytes["language"] == "fr"
    assert list(from_bytes)[:5] == ["id", "url", "status", "title", "text"]
    # A url that is no string is named as the mistake, not a failed C++ cast.
    with pytest.raises(TypeError, match="url must be str or None"):
        husk.extract(page, url=5)


def test_records_equal_the_cli_on_the_benchmark_pages():
    need(AEB)
    want = {r["id"]: r for r in cli("extract", "-j2", AEB)}
    processor = husk.Processor()
    pages = list(husk.read(str(AEB)))
    assert len(pages) == len(want) > 100
    for page in pages:
        got = processor.process(page["html"], page["url"] or None)
        expected = dict(want[page["id"]])
        for key in ("id",):
            expected.pop(key)
            got.pop(key)
        assert got == expected, page["id"]


def test_signatures_equal_husk_sign_on_the_benchmark_pages(tmp_path):
    need(AEB)
    extracted = tmp_path / "pages.jsonl"
    subprocess.run([BINARY, "extract", "-j2", str(AEB), "-o", str(extracted)], check=True, capture_output=True)
    want = {r["id"]: r["sig"] for r in cli("sign", extracted)}
    processor = husk.Processor(sign=True)
    checked = 0
    for page in husk.read(str(AEB)):
        got = processor.process(page["html"], page["url"] or None)
        assert got.get("sig") == want[page["id"]], page["id"]
        checked += 1
    assert checked == len(want)


def test_signatures_equal_husk_sign(tmp_path):
    texts = [{"id": f"t{i}", "text": f"Paragraph {i} tells the story of a harbour library and its readers, "
                                      f"who waited years for it to open its doors to the town."} for i in range(5)]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(t) + "\n" for t in texts))
    signed = cli("sign", source)
    for record, text in zip(signed, texts):
        assert husk.sign(text["text"]) == record["sig"]


def test_clusters_equal_husk_dedup_on_the_near_duplicate_pairs():
    need(NEAR_DUP)
    want = cli("dedup", NEAR_DUP)
    processor = husk.Processor()
    records = []
    for page in husk.read(str(NEAR_DUP)):
        r = processor.process(page["html"], page["url"] or None)
        if "error" in r:
            continue
        records.append({"id": page["id"], "url": r["url"], "title": r["title"], "text": r["text"],
                        "boilerplate": r["boilerplate"], "language": r["language"]})
    got = husk.dedup(records)
    assert len(got) > 10
    assert got == want


def test_explain_shows_the_blocks_process_keeps():
    html = (ROOT / "fixtures" / "demo" / "en-news.html").read_bytes()
    processor = husk.Processor()
    page = processor.explain(html)
    kept = re.findall(r'<div class="block kept"[^>]*>\n<div class="why">[^\n]*</div>\n<div class="text">([^<]*)</div>', page)
    assert kept and "\n\n".join(unescape(k) for k in kept) == processor.process(html)["text"]
    assert 'class="block removed"' in page and 'data-xpath="/html/body/' in page


def test_process_many_keeps_input_order_and_matches_process():
    pages = [f"<html><body><p>page number {i} has a paragraph of its own words {i}</p></body></html>"
             for i in range(40)]
    processor = husk.Processor(extractor="fulltext")
    one = [processor.process(p) for p in pages]
    many = list(processor.process_many(pages, jobs=2, batch=7))
    assert many == one
    assert [m["text"] for m in many][3] == "page number 3 has a paragraph of its own words 3"


def test_progress_knows_the_total_and_languages_filter(tmp_path):
    for name, text in [("a.html", "The council voted on Tuesday to turn the old harbour warehouses into a "
                                  "public library for the whole town and its many visitors."),
                       ("b.html", "Der Stadtrat hat am Dienstag beschlossen, die alten Lagerhallen am Hafen in "
                                  "eine öffentliche Bibliothek für die ganze Stadt umzuwandeln.")]:
        (tmp_path / name).write_text(f"<html><body><article><p>{text}</p></article></body></html>")
    assert len(husk.read(str(tmp_path))) == 2
    processor = husk.Processor()
    results = processor.process_many(husk.read(str(tmp_path)))
    assert len(results) == 2
    assert [r["id"] for r in results] == ["a.html", "b.html"]
    german = list(processor.process_many(husk.read(str(tmp_path)), languages=["de"]))
    assert [r["id"] for r in german] == ["b.html"]
    jsonl = tmp_path / "pages.jsonl"
    jsonl.write_text('{"url": "https://x.example/", "html": "<p>one</p>"}\n')
    with pytest.raises(TypeError):
        len(husk.read(str(jsonl)))


def test_process_many_keeps_the_ids_of_read_records(tmp_path):
    page = b"<html><body><p>a page whose two copies sit in two files of one folder, word for word</p></body></html>"
    (tmp_path / "one.html").write_bytes(page)
    (tmp_path / "two.html").write_bytes(page)
    processor = husk.Processor(extractor="fulltext")
    ids = [r["id"] for r in processor.process_many(husk.read(str(tmp_path)))]
    assert ids == ["one.html", "two.html"]
    triples = [("x", "https://example.org/x", page), ("y", None, page)]
    assert [r["id"] for r in processor.process_many(triples)] == ["x", "y"]


def test_readme_pipeline_keeps_one_of_a_byte_identical_pair(tmp_path):
    article = (b"<html><head><title>Harbour library</title></head><body><article>" +
               b"".join(b"<p>The council voted on Tuesday, paragraph %d, to turn the old harbour warehouses "
                        b"into a public library for the whole town and its visitors.</p>" % i for i in range(8)) +
               b"</article></body></html>")
    (tmp_path / "a.html").write_bytes(article)
    (tmp_path / "b.html").write_bytes(article)
    processor = husk.Processor()
    index = husk.DedupIndex()
    kept = []
    for record in processor.process_many(husk.read(str(tmp_path)), jobs=2):
        if "error" in record or record["language"] != "en":
            continue
        if index.add(record["id"], record["text"], record["url"])["duplicate_of"]:
            continue
        kept.append(record["id"])
    assert kept == ["a.html"]


def test_dedup_runs_the_corpus_engine_within_a_memory_budget(tmp_path):
    # 400 texts of 60 words, every fifth one a copy of the one before with
    # one word changed: minhash with Jaccard runs in the corpus engine, here
    # forced to spill its band keys to disk by a 64 KiB budget, and finds
    # the clusters husk dedup finds with the same budget.
    records = []
    for i in range(400):
        base = i - 1 if i % 5 == 4 else i
        words = [f"w{base}x{w}" for w in range(60)]
        if base != i:
            words[30] = "changed"
        records.append({"id": f"d{i:03d}", "text": " ".join(words), "language": "en"})
    source = tmp_path / "docs.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    spill = tmp_path / "spill"
    spill.mkdir()
    got = husk.dedup(records, memory=64 << 10, work_dir=str(spill))
    assert len(got) == 80
    assert got[0]["members"] == ["d003", "d004"]
    assert got == cli("dedup", "--memory", "64K", "--work-dir", spill, source)
    assert list(spill.iterdir()) == []


def test_dedup_identifies_languages_only_when_asked_as_husk_dedup_does(tmp_path):
    # One English story filed as English, as German, and once without a
    # language: unlabelled, the copy is compared with both pages; with
    # identify_languages it reads as English and joins the English page only.
    story = ("The harbour board met on Tuesday evening to decide the future of the old fish market. "
             "Traders asked for another year before the building is sold, and the board agreed to hear "
             "their plan at its next meeting in the spring, when the council's survey will be ready.")
    records = [{"id": "en", "text": story, "language": "en"}, {"id": "de", "text": story, "language": "de"},
               {"id": "none", "text": story}]
    source = tmp_path / "story.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert [c["size"] for c in husk.dedup(records)] == [3]
    identified = husk.dedup(records, identify_languages=True)
    assert [c["members"] for c in identified] == [["en", "none"]]
    assert identified == cli("dedup", "--identify-languages", source)
    with pytest.raises(husk.Error):
        husk.dedup(records, any_language=True, identify_languages=True)


def test_dedup_leaves_a_sites_frame_out_as_husk_dedup_does(tmp_path):
    # 12 pages of one site: the same 40 frame lines around a different item
    # of 25 words. The frame makes them one cluster unless its lines, which
    # recur in every page of the host, leave the texts before signing.
    frame = [f"menu entry {chr(97 + n % 26)}{chr(97 + n // 26)} of the site navigation" for n in range(40)]
    records = []
    for p in range(12):
        item = " ".join(f"item{chr(97 + p)}{chr(97 + w % 26)}{chr(97 + w // 26)}" for w in range(25))
        records.append({"id": f"p{p}", "url": f"https://shop.example/{p}", "language": "en",
                        "text": "\n".join(frame[:20] + [item] + frame[20:])})
    source = tmp_path / "shop.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert husk.dedup(records) == [] == cli("dedup", source)
    together = husk.dedup(records, host_lines=0)
    assert len(together) == 1 and together[0]["size"] == 12
    assert together == cli("dedup", "--host-lines", "0", source)


def test_dedup_index_adds_many_removes_and_reads_records(tmp_path):
    story = " ".join(f"harbour{i} library{i}" for i in range(40))
    other = " ".join(f"orchard{i} harvest{i}" for i in range(40))
    index = husk.DedupIndex(str(tmp_path / "db"))
    verdicts = index.add_many([("a", story, "https://n.example/a"), {"id": "b", "text": story + " today"},
                               {"id": "c", "text": other}, ("d", "")])
    assert [v.get("cluster") for v in verdicts[:3]] == ["a", "a", "c"]
    assert verdicts[1]["duplicate_of"]["id"] == "a"
    assert "error" in verdicts[3]
    assert len(index) == 3
    assert index.get("a")["url"] == "https://n.example/a"
    assert index.get("zzz") is None
    # The main page leaves: b is its cluster's main page now, its record says so.
    assert index.remove("a") is True
    assert index.remove("a") is False
    assert index.get("b")["cluster"] == "b" and index.get("b")["duplicate_of"] is None
    assert len(index) == 2


def test_dedup_index_maintenance_is_husk_dbs(tmp_path):
    # stats, verify, compact and export: what husk db prints and writes.
    story = " ".join(f"harbour{i} library{i}" for i in range(40))
    other = " ".join(f"orchard{i} harvest{i}" for i in range(40))
    index = husk.DedupIndex(str(tmp_path / "db"))
    index.add_many([("a", story, "https://n.example/a"), ("b", story + " today"), ("c", other)])
    stats = index.stats()
    assert (stats["pages"], stats["clusters"], stats["duplicates"]) == (3, 2, 1)
    shown = subprocess.run([BINARY, "db", "stats", "--db", str(tmp_path / "db")], check=True,
                           capture_output=True).stdout.decode()
    assert json.loads(shown) == stats
    assert index.verify() == [] and index.verify(exhaustive=True) == []
    index.compact(str(tmp_path / "backup"))
    with pytest.raises(husk.Error, match="already holds an index"):
        index.compact(str(tmp_path / "backup"))
    index.export(str(tmp_path / "records.jsonl"))
    records = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == ["a", "b", "c"]
    assert records[1]["duplicate_of"]["id"] == "a" and records[0]["url"] == "https://n.example/a"
    assert not (tmp_path / "records.jsonl.partial").exists()
    del index
    backup = husk.DedupIndex(str(tmp_path / "backup"))
    assert len(backup) == 3 and backup.get("b") == records[1] and backup.verify() == []
    with pytest.raises(husk.Error):
        backup.export(str(tmp_path / "missing" / "records.jsonl"))


def test_processor_applies_site_rules(tmp_path):
    site = ROOT / "fixtures" / "sites" / "garden"
    (tmp_path / "garden.toml").write_text('[[rule]]\nhost = "garden.example"\n'
                                          'include = ["//div[@class=\'main\']"]\n')
    processor = husk.Processor(sites=str(tmp_path))
    page = (site / "post1.html").read_bytes()
    ruled = processor.process(page, "https://garden.example/blog/post1.html")
    assert ruled["extractor"] == "xpath"
    assert ruled["text"].startswith("Planting tomatoes")
    assert processor.process(page, "https://other.example/post1.html")["extractor"] != "xpath"
    with pytest.raises(husk.Error):
        husk.Processor(sites=str(tmp_path / "missing"))


def test_processor_uses_a_stored_template(tmp_path):
    site = ROOT / "fixtures" / "sites" / "garden"
    pages = tmp_path / "site.jsonl"
    pages.write_text("".join(json.dumps({"url": f"https://garden.example/blog/post{i}.html",
                                         "html": (site / f"post{i}.html").read_text()}) + "\n"
                             for i in range(1, 7)))
    store = tmp_path / "templates"
    subprocess.run([BINARY, "extract", "--extractor", "template", "--state", str(store), str(pages), "-o",
                    os.devnull], check=True, capture_output=True)
    processor = husk.Processor(templates=str(store))
    r = processor.process((site / "post2.html").read_bytes(), "https://garden.example/blog/a-new-post.html")
    assert r["extractor"] == "template"
    assert r["text"].startswith("Pruning roses\n\nPrune roses in late winter")
    assert "Free delivery" not in r["text"]


def test_the_docs_pipeline_on_the_demo_pages():
    # docs/python.md's pipeline step, as written, on fixtures/demo: what its note says it keeps.
    processor = husk.Processor(format="markdown")
    index = husk.DedupIndex()
    kept = []
    for record in processor.process_many(husk.read(str(ROOT / "fixtures" / "demo")), jobs=2):
        if "error" in record or record["language"] != "en":
            continue
        if index.add(record["id"], record["text"], record["url"])["duplicate_of"]:
            continue
        kept.append(record["id"])
    assert kept == ["en-news-syndicated.html"]


def test_the_docs_example_of_everything_the_cli_does(tmp_path):
    # docs/python.md's shell block and Python block, run as written in a
    # directory holding the tree's fixtures, with husk on the PATH.
    doc = (ROOT / "docs" / "python.md").read_text()
    part = doc[doc.index("**Everything the command line does, from Python.**"):]
    shell = part[part.index("```sh\n") + 6:part.index("```\n", part.index("```sh\n"))]
    code = part[part.index("```python\n") + 10:part.index("```\n", part.index("```python\n"))]
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    env = dict(os.environ, PATH=str(Path(BINARY).parent) + os.pathsep + os.environ["PATH"])
    subprocess.run(["bash", "-e", "-c", shell], cwd=tmp_path, env=env, check=True, capture_output=True)
    printed = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True,
                             capture_output=True, text=True).stdout.splitlines()
    assert printed == ["{'xpath'}", "6 pages, 5 indexed, 0 clusters"]


def test_dedup_refuses_two_records_with_one_id():
    text = "the council voted on tuesday to turn the old harbour warehouses into a public library for the town"
    with pytest.raises(husk.Error, match="twice"):
        husk.dedup([{"id": "a", "text": text}, {"id": "a", "text": text + " today"}])


def test_dedup_and_the_index_name_the_record_a_bad_field_is_in():
    text = "the council voted on tuesday to turn the old harbour warehouses into a public library for the town"
    with pytest.raises(TypeError, match=r'records\[1\]: "text" must be a string'):
        husk.dedup([{"id": "a", "text": text}, {"id": "b", "text": 5}])
    with pytest.raises(TypeError, match=r'records\[0\]: "rank" must be a number'):
        husk.dedup([{"id": "a", "text": text, "rank": "high"}])
    with pytest.raises(TypeError, match=r"records\[1\]: expected a dict"):
        husk.dedup([{"id": "a", "text": text}, "b"])
    index = husk.DedupIndex()
    with pytest.raises(TypeError, match=r'pages\[1\]: "url" must be a string'):
        index.add_many([("a", text), {"id": "b", "text": text, "url": 7}])
    with pytest.raises(TypeError, match=r"pages\[0\]: expected a dict or an \(id"):
        index.add_many(["a"])


def test_threads_share_one_processor():
    processor = husk.Processor(extractor="fulltext")
    results = {}

    def work(n):
        results[n] = [processor.process(f"<p>thread {n} page {i} words</p>")["text"] for i in range(50)]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[2][7] == "thread 2 page 7 words"


def test_markdown_metadata_and_options():
    page = ("<html><head><title>Guide | Site</title><meta name=author content='Ann Lee'></head><body>"
            "<h1>Guide</h1><h2>Install</h2><pre><code class='language-sh'>make demo</code></pre>"
            "<p>See <a href='/docs'>the docs</a>.</p></body></html>")
    r = husk.extract(page, "https://site.example/guide", format="markdown", extractor="fulltext", links=True)
    assert "## Install" in r["markdown"]
    assert "```sh\nmake demo\n```" in r["markdown"]
    assert "[the docs](https://site.example/docs)" in r["markdown"]
    assert r["author"] == ["Ann Lee"]
    assert r["title"] == "Guide"


def test_dedup_index_in_memory_and_on_disk(tmp_path):
    text = "the council voted on tuesday to turn the old harbour warehouses into a public library for the town"
    memory = husk.DedupIndex()
    assert memory.add("a", text)["duplicate_of"] is None
    assert memory.add("b", text + " today")["duplicate_of"]["id"] == "a"
    assert memory.query(text)[0]["id"] == "a"
    signed = husk.sign(text)
    assert memory.add("c", signed)["duplicate_of"]["id"] == "a"
    assert memory.query(signed)[0]["measure"].startswith("jaccard")
    with pytest.raises(TypeError):
        memory.add("d", 42)
    path = tmp_path / "index"
    disk = husk.DedupIndex(str(path))
    disk.add("x", text)
    del disk
    again = husk.DedupIndex(str(path))
    assert len(again) == 1
    assert again.add("y", text)["duplicate_of"]["id"] == "x"


def test_dedup_index_finds_text_reuse_with_the_containment_measure(tmp_path):
    # An essay quoting one paragraph of a longer story: containment finds
    # it and says the essay's text lies inside the story's; Jaccard, the
    # default, does not call them duplicates; the index keeps its measure.
    def paragraph(prefix, i):
        return " ".join(f"{prefix}{i}x{w}" for w in range(40)) + "."
    story = "\n\n".join(paragraph("story", i) for i in range(6))
    essay = "\n\n".join([paragraph("essay", i) for i in range(3)] + [paragraph("story", 3)])
    reuse = husk.DedupIndex(str(tmp_path / "reuse"), measure="containment")
    reuse.add("story", story)
    found = reuse.add("essay", essay)["duplicate_of"]
    assert found["id"] == "story" and found["measure"] == "containment" and found["contained"] == "page"
    assert found["score"] >= 0.1
    assert reuse.query(paragraph("story", 3))[0]["contained"] == "page"
    near = husk.DedupIndex()
    near.add("story", story)
    assert near.add("essay", essay)["duplicate_of"] is None
    del reuse
    with pytest.raises(Exception, match="containment"):
        husk.DedupIndex(str(tmp_path / "reuse"))
    assert len(husk.DedupIndex(str(tmp_path / "reuse"), measure="containment")) == 2


def test_dedup_index_leaves_out_paragraphs_seen_before():
    # The second page to hold a newsletter notice loses it (N = 1), in
    # what add() returns and in the stored record; the first keeps it.
    notice = "Subscribe to our newsletter for the week's stories from the harbour district and beyond."
    first = " ".join(f"story{w}" for w in range(40)) + "\n\n" + notice
    second = " ".join(f"essay{w}" for w in range(40)) + "\n\n" + notice
    index = husk.DedupIndex(dedup_paragraphs=1)
    assert "paragraphs_dropped" not in index.add("a", first)
    verdict = index.add("b", second)
    assert verdict["paragraphs_dropped"] == 1
    assert verdict["text"] == " ".join(f"essay{w}" for w in range(40))
    assert index.get("b")["text"] == verdict["text"] and index.get("a")["text"] == first


def test_dedup_index_leaves_a_hosts_frame_lines_out_as_husk_dedup_does(tmp_path):
    # Twelve shop pages: eight lines of one template around short,
    # different items. While the template is new the pages near-duplicate
    # each other; from the tenth page on (host_lines=10) its lines leave
    # them before signing, and the counts persist across a reopen. The
    # batch run over all twelve texts (husk.dedup, the same rule with every
    # page counted first) puts none of them together.
    frame = [f"Shop menu line {i}: " + " ".join(f"frame{i}x{w}" for w in range(6)) for i in range(8)]
    pages = [{"id": f"item{k}", "url": f"https://shop.example/item/{k}",
              "text": "\n".join(frame + ["Item " + " ".join(f"thing{k}x{w}" for w in range(10))])} for k in range(12)]
    path = str(tmp_path / "shop")
    index = husk.DedupIndex(path)
    verdicts = [index.add(p["id"], p["text"], p["url"]) for p in pages[:10]]
    assert [v.get("frame_lines", 0) for v in verdicts] == [0] * 9 + [8]
    assert all(v["duplicate_of"] for v in verdicts[1:9]) and verdicts[9]["duplicate_of"] is None
    del index
    index = husk.DedupIndex(path)
    later = index.add_many(pages[10:])
    assert [v["frame_lines"] for v in later] == [8, 8] and all(v["duplicate_of"] is None for v in later)
    assert index.get("item11")["text"] == pages[11]["text"]  # the record keeps the whole text
    # A query with the URL is signed as an add would be: the template's
    # lines out, so another item of the shop matches nothing; without it,
    # the template alone makes it resemble the first nine pages.
    other = "\n".join(frame + ["Item " + " ".join(f"other{w}" for w in range(10))])
    assert index.query(other, "https://shop.example/item/99") == []
    assert {m["id"] for m in index.query(other)} >= {"item1", "item2"}
    off = husk.DedupIndex(host_lines=0)
    assert all(v["duplicate_of"] for v in [off.add(p["id"], p["text"], p["url"]) for p in pages][1:])
    assert all(c["size"] == 1 for c in husk.dedup(pages))


def test_the_hostile_inputs_of_the_cli_come_back_as_page_errors(tmp_path):
    import gzip
    import random
    rng = random.Random(42)
    good = "<html><body><article><p>" + " ".join(f"good{i}" for i in range(50)) + "</p></article></body></html>"
    (tmp_path / "good.html").write_text(good)
    (tmp_path / "b01-empty.html").write_bytes(b"")
    (tmp_path / "b02-junk.html").write_bytes(bytes(rng.randrange(256) for _ in range(200000)))
    (tmp_path / "b03-truncated.html.gz").write_bytes(gzip.compress(good.encode())[:40])
    (tmp_path / "b04-deep.html").write_bytes(b"<div>" * 100000 + b"deep bottom text")
    big = b"<html><body>" + b"<div class=row><p>filler words in a very large page</p></div>\n" * 800000
    (tmp_path / "b05-50mb.html").write_bytes(big)
    (tmp_path / "b06-textnode.html").write_bytes(b"<html><body><p>" + b"a" * (10 << 20) + b"</p></body></html>")
    # A UTF-8 page (more valid letters than bad bytes) with bytes that are not UTF-8.
    (tmp_path / "b07-bad-utf8.html").write_bytes(
        "<meta charset=utf-8><p>Zoë's naïve cafés, déjà vu at Noël: valid ".encode() + b"\xF0\x28\x8C\x28 then \xC0\xAF more</p>")
    (tmp_path / "b08-unknown-charset.html").write_bytes(b'<meta charset="klingon-8"><p>text under an unknown label</p>')
    (tmp_path / "b09-truncated.warc").write_bytes(
        b"WARC/1.0\r\nWARC-Type: response\r\nContent-Type: application/http\r\nContent-Length: 9999\r\n\r\nHTTP/1.1 200")
    processor = husk.Processor()
    by_id = {}
    for page in husk.read(str(tmp_path)):
        if page["error"]:
            by_id[page["id"]] = {"error": page["error"]}
            continue
        by_id[page["id"]] = processor.process(page["html"], page["url"] or None)
    assert "good49" in by_id["good.html"]["text"]
    assert "error" in by_id["b01-empty.html"]
    assert "truncated gzip" in by_id["b03-truncated.html.gz"]["error"]
    assert "deep bottom text" in by_id["b04-deep.html"]["text"]
    assert "valid \ufffd" in by_id["b07-bad-utf8.html"]["text"]
    assert "unknown label" in by_id["b08-unknown-charset.html"]["text"]
    assert any("truncated WARC" in r.get("error", "") for i, r in by_id.items() if "b09" in i)
    for name in ("b02-junk.html", "b05-50mb.html", "b06-textnode.html"):
        assert name in by_id


def test_hostile_pages_give_errors_not_crashes():
    processor = husk.Processor()
    assert "error" in processor.process(b"")
    junk = bytes(range(256)) * 1000
    assert isinstance(processor.process(junk), dict)
    deep = b"<div>" * 100000 + b"deep text at the bottom"
    assert "deep text at the bottom" in processor.process(deep)["text"]
    lists = "".join(f"<ul><li>item {i}" for i in range(20000))
    assert isinstance(processor.process(lists), dict)
    with pytest.raises(TypeError):
        processor.process(12345)
    with pytest.raises(husk.Error):
        husk.Processor(format="pdf")
    with pytest.raises(husk.Error):
        husk.sign("text", signers=["no-such-signer"])
    with pytest.raises(husk.Error):
        list(husk.read("/no/such/file.warc"))
    with pytest.raises(husk.Error):
        husk.dedup([{"id": "a", "sig": {"terms": "many"}}])


def test_a_slow_page_times_out_and_the_next_one_is_whole():
    slow = "<html><body>" + "".join(
        f"<div class=c{i % 50}><p>river {i} stone <a href=/x{i}>gamma</a></p></div>" for i in range(60000))
    page = "<html><body><article><p>" + " ".join(f"word{i}" for i in range(80)) + "</p></article></body></html>"
    processor = husk.Processor(page_timeout_ms=50)
    out = list(processor.process_many([slow, page], jobs=1))
    assert out[0]["error"].startswith("timeout: ")
    assert out[0]["text"] == ""
    assert "word0" in out[1]["text"] and "error" not in out[1]
    assert "error" not in husk.Processor(page_timeout_ms=0).process(slow)
