"""husk in a Scrapy crawl: clean text and near-duplicate verdicts for every page fetched.

Two ways in, each configured from the crawl's settings:

- ``husk.scrapy.HuskPipeline`` (ITEM_PIPELINES): an item that carries a page's HTML
  (field ``HUSK_HTML_FIELD``, default "html") and URL (``HUSK_URL_FIELD``, default "url")
  gets husk's record under ``HUSK_RECORD_FIELD`` (default "husk": text, title, metadata,
  language, duplicate_of, cluster); a near-duplicate of a page seen before is dropped
  (DropItem) unless ``HUSK_KEEP_DUPLICATES`` is set.
- ``husk.scrapy.HuskDownloaderMiddleware`` (DOWNLOADER_MIDDLEWARES): every HTML response
  is processed as it arrives, its record put in ``response.meta["husk"]``; a near-duplicate
  is not handed to the spider (IgnoreRequest) unless ``HUSK_KEEP_DUPLICATES`` is set.

Settings shared by both:
  HUSK_INDEX         a DedupIndex directory that persists across crawls (default: a temporary one)
  HUSK_THRESHOLD     the Jaccard similarity of a near-duplicate (default 0.5, as husk serve)
  HUSK_EXTRACTOR     husk's extractor (default "auto")
  HUSK_SITES         a directory of per-site XPath rules
  HUSK_TEMPLATES     a template store (husk extract --state)
  HUSK_LANGUAGES     keep only pages in these languages ("en", "de"): the others are dropped
  HUSK_KEEP_DUPLICATES  keep near-duplicates (their record says duplicate_of) instead of dropping them

Each page is extracted and indexed by the husk C++ library in the crawl's process, with
the GIL released while it works.
"""
from __future__ import annotations

from typing import Optional

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem, IgnoreRequest, NotConfigured

import husk

__all__ = ["HuskPipeline", "HuskDownloaderMiddleware"]


class _Husk:
    """The processor and the index a crawl's pages go through, from its settings."""

    def __init__(self, settings) -> None:
        self.processor = husk.Processor(extractor=settings.get("HUSK_EXTRACTOR", "auto"),
                                        sites=settings.get("HUSK_SITES"), templates=settings.get("HUSK_TEMPLATES"))
        self.index = husk.DedupIndex(settings.get("HUSK_INDEX"), threshold=settings.getfloat("HUSK_THRESHOLD", 0.5))
        languages = settings.getlist("HUSK_LANGUAGES")
        self.languages = {code.split("-")[0].lower() for code in languages} if languages else None
        self.keep_duplicates = settings.getbool("HUSK_KEEP_DUPLICATES", False)

    def record(self, html, url: Optional[str], content_type: Optional[str] = None) -> dict:
        """husk's record of a page (its HTTP charset, when given, outranking the page's <meta>), with the
        index's verdict when the page has text to sign."""
        record = self.processor.process_batch([(None, url, html, content_type)], 1)[0]
        if "error" in record or not record.get("text"):
            return record
        try:
            record.update(self.index.add(url or record["id"], record["text"], url or ""))
        except husk.Error as e:  # a page with nothing to sign, or a full index: the page goes on, unjudged
            record.setdefault("warnings", []).append(str(e))
        return record

    def rejects(self, record: dict) -> Optional[str]:
        """Why a page is left out of the crawl's output, or None."""
        if self.languages is not None and "error" not in record:
            if (record.get("language") or "").split("-")[0].lower() not in self.languages:
                return f"husk: language {record.get('language')!r} is not among {sorted(self.languages)}"
        duplicate = record.get("duplicate_of")
        if duplicate and not self.keep_duplicates:
            return f"husk: near-duplicate of {duplicate['id']} ({duplicate['measure']} {duplicate['score']:.3f})"
        return None


class HuskPipeline:
    """An item pipeline: the item's page extracted and judged; near-duplicates dropped."""

    def __init__(self, settings) -> None:
        self.husk = _Husk(settings)
        self.html_field = settings.get("HUSK_HTML_FIELD", "html")
        self.url_field = settings.get("HUSK_URL_FIELD", "url")
        self.record_field = settings.get("HUSK_RECORD_FIELD", "husk")

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler.settings)

    def process_item(self, item, spider):
        adapter = ItemAdapter(item)
        html = adapter.get(self.html_field)
        if html is None:
            return item  # not a page
        record = self.husk.record(html, adapter.get(self.url_field))
        why = self.husk.rejects(record)
        if why:
            raise DropItem(why)
        adapter[self.record_field] = record
        return item


class HuskDownloaderMiddleware:
    """A downloader middleware: every HTML response extracted and judged before the spider sees it."""

    def __init__(self, settings) -> None:
        self.husk = _Husk(settings)

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("HUSK_ENABLED", True):
            raise NotConfigured
        return cls(crawler.settings)

    def process_response(self, request, response, spider):
        content_type = response.headers.get(b"Content-Type", b"").decode("latin-1").lower()
        if response.status != 200 or ("html" not in content_type and content_type):
            return response
        record = self.husk.record(response.body, response.url, content_type or None)
        why = self.husk.rejects(record)
        if why:
            raise IgnoreRequest(why)
        request.meta["husk"] = record  # the spider reads it as response.meta["husk"]
        return response
