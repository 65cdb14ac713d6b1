"""husk.scrapy in real Scrapy crawls of a loopback site: the articles kept, the planted
near-duplicate dropped, each kept page carrying husk's record."""
import functools
import http.server
import json
import os
import subprocess
import sys
import textwrap
import threading

import pytest

try:
    import scrapy  # noqa: F401  (Debian's python3-scrapy)
except ImportError:
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("scrapy is not installed (make deps installs python3-scrapy)", allow_module_level=True)


def article(topic, sentences=8):
    # Every sentence of one topic's own: two articles share no run of five words.
    body = " ".join(f"The {topic} story, part {i}, tells {topic}{i} readers what {topic}{i + 1} people did." for i in range(sentences))
    return f"<html><head><title>{topic}</title></head><body><nav><a href='index.html'>home</a></nav>" \
           f"<article><h1>{topic}</h1><p>{body}</p></article></body></html>"


@pytest.fixture()
def site(tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    (root / "index.html").write_text("<html><body>" + "".join(
        f"<a href='{name}.html'>{name}</a> " for name in ("harbour", "harbour-copy", "orchard")) + "</body></html>")
    (root / "harbour.html").write_text(article("harbour"))
    # The planted near-duplicate: the same article under another address, one word changed.
    (root / "harbour-copy.html").write_text(article("harbour").replace("part 3,", "part three,"))
    (root / "orchard.html").write_text(article("orchard"))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def crawl(tmp_path, base, settings):
    """Runs a spider over the site in its own process (Twisted's reactor starts once per process)."""
    out = tmp_path / "items.jsonl"
    script = tmp_path / "crawl.py"
    script.write_text(textwrap.dedent(f"""
        import scrapy
        from scrapy.crawler import CrawlerProcess

        class Site(scrapy.Spider):
            name = "site"
            start_urls = [{base + "/index.html"!r}]

            def parse(self, response):
                if not response.url.endswith("index.html"):
                    yield {{"url": response.url, "html": response.text,
                            "husk_meta": response.meta.get("husk")}}
                for href in response.css("a::attr(href)").getall():
                    yield response.follow(href, self.parse)

        settings = {settings!r}
        settings.update({{"FEEDS": {{{str(out)!r}: {{"format": "jsonlines"}}}}, "LOG_LEVEL": "WARNING",
                          "ROBOTSTXT_OBEY": False, "CONCURRENT_REQUESTS": 1,
                          "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7"}})
        process = CrawlerProcess(settings)
        process.crawl(Site)
        process.start()
    """))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return sorted((json.loads(line) for line in out.read_text().splitlines()), key=lambda item: item["url"]), run.stderr


def test_the_pipeline_keeps_the_articles_and_drops_the_planted_copy(tmp_path, site):
    items, log = crawl(tmp_path, site, {"ITEM_PIPELINES": {"husk.scrapy.HuskPipeline": 300}})
    urls = [item["url"][len(site):] for item in items]
    assert len(urls) == 2, (urls, log)
    assert "/orchard.html" in urls
    assert ("/harbour.html" in urls) != ("/harbour-copy.html" in urls)  # one of the two, whichever came first
    for item in items:
        record = item["husk"]
        assert record["duplicate_of"] is None
        assert f"The {record['title']} story, part 0" in record["text"]
        assert "home" not in record["text"]  # the navigation is boilerplate
    assert "near-duplicate of" in log


def test_the_middleware_hands_the_spider_only_new_pages(tmp_path, site):
    items, log = crawl(tmp_path, site, {"DOWNLOADER_MIDDLEWARES": {"husk.scrapy.HuskDownloaderMiddleware": 950}})
    urls = [item["url"][len(site):] for item in items]
    assert len(urls) == 2, (urls, log)
    assert "/orchard.html" in urls
    for item in items:
        assert item["husk_meta"]["duplicate_of"] is None
        assert item["husk_meta"]["cluster"]
        assert "The orchard story" in item["husk_meta"]["text"] or "The harbour story" in item["husk_meta"]["text"]
