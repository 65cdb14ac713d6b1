"""husk: boilerplate removal and near-duplicate detection for crawled web pages.

The C++ library bound with pybind11: the same records, texts, signatures and
clusters as the husk command line, with the GIL released while husk works.
See README.md, "husk in Python".
"""
from __future__ import annotations

import functools
import itertools
from typing import Iterable, Iterator, Optional, Tuple, Union

from ._husk import DedupIndex, Error, PageReader, dedup, normalize, sign
from ._husk import Processor as _Processor

__all__ = ["Processor", "DedupIndex", "Error", "extract", "normalize", "sign", "dedup", "read"]

Html = Union[bytes, str]


class Processor(_Processor):
    """A reusable page processor (husk::Processor): build it once, call it on many pages."""

    def process_many(self, pages: Iterable[Union[Html, Tuple[Optional[str], Html]]], jobs: int = 0,
                     batch: int = 64) -> Iterator[dict]:
        """Processes pages on `jobs` threads (0: one per core); yields the results in input order.

        Each page is the HTML (bytes or str) or a (url, html) pair.
        """
        it = iter(pages)
        while True:
            chunk = list(itertools.islice(it, batch))
            if not chunk:
                return
            pairs = [p if isinstance(p, tuple) else (None, p) for p in chunk]
            yield from self.process_batch(pairs, jobs)


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
