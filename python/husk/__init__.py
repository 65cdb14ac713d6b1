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

__all__ = ["__version__", "Processor", "Results", "DedupIndex", "Error", "extract", "normalize", "sign", "dedup",
           "read"]

Html = Union[bytes, str]


class Processor(_Processor):
    """A reusable page processor (husk::Processor): build it once, call it on many pages."""

    def process_many(self, pages: Iterable[Union[Html, dict, Tuple]], jobs: int = 0,
                     batch: int = 64, languages: Optional[Iterable[str]] = None) -> "Results":
        """Processes pages on `jobs` threads (0: one per core); yields the results in input order.

        Each page is the HTML (bytes or str), a (url, html) pair, an (id, url, html)
        triple, or a record of husk.read() (its id, url, html and content_type are
        kept). A page given without an id gets husk's id for it (a hash of its URL,
        or of its bytes without one), so give ids when identical pages must stay apart.
        A record of husk.read() that carries an error comes back as that error.
        `languages` ("en", "de", ...) keeps only the pages identified in one of
        them, as `husk extract --languages` does (failed pages still come back).
        The results have a len() when the pages do (a list, husk.read() of HTML
        files), so that a progress bar (tqdm) shows the total.
        """
        return Results(self._process_many(pages, jobs, batch, languages), pages)

    def _process_many(self, pages, jobs, batch, languages) -> Iterator[dict]:
        keep = None if languages is None else {code.split("-")[0].lower() for code in languages}
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
                result = failed[n] if n in failed else next(done)
                if keep is not None and "error" not in result and \
                        (result.get("language") or "").split("-")[0].lower() not in keep:
                    continue
                yield result


class Results:
    """The results of Processor.process_many: an iterator with the pages' len() when they have one."""

    def __init__(self, results: Iterator[dict], pages):
        self._results = results
        self._pages = pages

    def __iter__(self) -> "Results":
        return self

    def __next__(self) -> dict:
        return next(self._results)

    def __len__(self) -> int:
        return len(self._pages)  # TypeError when the pages have no len(), as for any iterator


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
    The reader has a len() when the paths tell the number of pages before they
    are read (HTML files, directories of them, URLs), for progress bars.
    """
    return PageReader([str(p) for p in paths])
