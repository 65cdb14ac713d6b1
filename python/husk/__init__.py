"""husk: boilerplate removal and near-duplicate detection for crawled web pages.

The C++ library bound with pybind11: the same records, texts, signatures and
clusters as the husk command line, with the GIL released while husk works.
See README.md, "husk in Python".
"""
from __future__ import annotations

import functools
import itertools
from typing import Iterable, Iterator, Optional, Tuple, Union

from ._husk import DedupIndex, Error, PageReader, __version__, dedup, normalize, sign
from ._husk import Processor as _Processor

__all__ = ["__version__", "Processor", "DedupIndex", "Error", "extract", "normalize", "sign", "dedup", "read"]

Html = Union[bytes, str]


class Processor(_Processor):
    """A reusable page processor (husk::Processor): build it once, call it on many pages."""

    def process_many(self, pages: Iterable[Union[Html, dict, Tuple]], jobs: int = 0,
                     batch: int = 64) -> Iterator[dict]:
        """Processes pages on `jobs` threads (0: one per core); yields the results in input order.

        Each page is the HTML (bytes or str), a (url, html) pair, an (id, url, html)
        triple, or a record of husk.read() (its id, url, html and content_type are
        kept). A page given without an id gets husk's id for it (a hash of its URL,
        or of its bytes without one), so give ids when identical pages must stay apart.
        A record of husk.read() that carries an error comes back as that error.
        """
        it = iter(pages)
        while True:
            chunk = list(itertools.islice(it, batch))
            if not chunk:
                return
            todo, failed = [], {}
            for n, page in enumerate(chunk):
                if isinstance(page, dict) and page.get("error"):
                    failed[n] = {"id": page.get("id"), "url": page.get("url"), "error": page["error"]}
                else:
                    todo.append(_page_tuple(page))
            done = iter(self.process_batch(todo, jobs))
            for n in range(len(chunk)):
                yield failed[n] if n in failed else next(done)


def _page_tuple(page) -> tuple:
    """(id, url, html, content_type) of a page as process_many takes it."""
    if isinstance(page, dict):
        return (page.get("id"), page.get("url"), page["html"], page.get("content_type") or None)
    if isinstance(page, tuple):
        if len(page) == 2:
            return (None, page[0], page[1], None)
        if len(page) == 3:
            return (page[0], page[1], page[2], None)
        raise ValueError("a page tuple is (url, html) or (id, url, html)")
    return (None, None, page, None)


@functools.lru_cache(maxsize=16)
def _processor(extractor: str, format: str, links: bool, images: bool, comments: bool,
               preset: Optional[str]) -> Processor:
    return Processor(extractor=extractor, format=format, links=links, images=images, comments=comments,
                     preset=preset)


def extract(html: Html, url: Optional[str] = None, *, format: str = "text", extractor: str = "auto",
            links: bool = False, images: bool = False, comments: bool = False,
            preset: Optional[str] = None) -> dict:
    """Extracts one page: a dict with the fields of `husk extract`'s JSON records."""
    return _processor(extractor, format, links, images, comments, preset).process(html, url)


def read(*paths: str) -> Iterator[dict]:
    """Pages of HTML files, directories, WARC and JSONL files, as the CLI reads them.

    Each page is a dict: id, url, html (bytes, or str for JSONL input), content_type, error.
    """
    return iter(PageReader([str(p) for p in paths]))
