"""husk: boilerplate removal and near-duplicate detection for crawled web pages."""
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, Union

Html = Union[bytes, str]

__version__: str  # the library's version (CMakeLists.txt project version)

class Error(RuntimeError):
    """husk's error: a bad option, an unreadable file, a malformed record. The message names what failed."""

class Processor:
    """A reusable page processor (husk::Processor); thread-safe, the GIL released while it works.

    extractor: "auto" (the cascade) | "learned" | "density" | "fulltext" | "xpath" | "template"
    format: "text" | "markdown" | "html" (markdown/html add that field to each record)
    links, images: keep hyperlinks / images in the Markdown or HTML
    comments: return the page's user comment section in a "comments" field
    preset: None | "precision" | "recall" (trafilatura's favor_precision / favor_recall)
    sign: add a "sig" dict of near-duplicate signatures (signers: their names; idf: an IDF file)
    page_timeout_ms: the CPU time one page may take (0: no limit); a page past it comes back with
        error "timeout: ..." and the others go on
    sites: a directory of per-site XPath rules (*.toml, as husk extract --sites)
    templates: a template store (a directory husk extract --state wrote)
    """
    def __init__(self, extractor: str = "auto", format: str = "text", links: bool = False, images: bool = False,
                 comments: bool = False, preset: Optional[str] = None, sign: bool = False,
                 signers: Sequence[str] = (), idf: Optional[str] = None, page_timeout_ms: int = 10000,
                 sites: Optional[str] = None, templates: Optional[str] = None) -> None: ...
    def process(self, html: Html, url: Optional[str] = None) -> dict:
        """One page: a dict with the fields of `husk extract`'s JSON records (text, title, metadata, ...).

        html as bytes is decoded from its charset; as str it is taken as text. A page that fails
        comes back with an "error" field, as in the CLI.
        """
    def explain(self, html: Html, url: Optional[str] = None) -> str:
        """husk explain's HTML page for one page: each block kept or removed, the stage that decided,
        its XPath, and where each metadata field was read (docs/cli.md, "husk explain")."""
    def process_batch(self, batch: List[Tuple[Optional[str], Optional[str], Html, Optional[str]]],
                      jobs: int = 0) -> List[dict]:
        """(id, url, html, content_type) tuples processed on `jobs` threads (0: one per core), results in
        input order; a None id gets husk's id for the page."""
    def process_many(self, pages: Iterable[Union[Html, dict, Tuple]], jobs: int = 0,
                     batch: int = 64, languages: Optional[Iterable[str]] = None) -> "Results":
        """Pages processed on `jobs` threads; yields the results in input order.

        A page is html, (url, html), (id, url, html), or a record of husk.read(), whose id is kept.
        languages: keep only the pages identified in one of them ("en", "de"), as husk extract --languages.
        The results have a len() when the pages do, for progress bars.
        """

class Results(Iterator[dict]):
    """Processor.process_many's results: an iterator with the pages' len() when they have one."""
    def __next__(self) -> dict: ...
    def __len__(self) -> int: ...

def extract(html: Html, url: Optional[str] = None, *, format: str = "text", extractor: str = "auto",
            links: bool = False, images: bool = False, comments: bool = False,
            preset: Optional[str] = None) -> dict:
    """Extracts one page: a dict with the fields of `husk extract`'s JSON records."""

def normalize(text: str) -> str:
    """husk's normalisation (ICU): the normalised terms, separated by spaces."""

def sign(text: str, signers: Sequence[str] = (), idf: str = "") -> dict:
    """The near-duplicate signatures of a clean text, as `husk sign`'s "sig" object."""

def dedup(records: List[dict], method: str = "minhash", threshold: Optional[float] = None, k: int = 6,
          cluster: str = "components", main: str = "first", any_language: bool = False,
          singletons: bool = False, jobs: int = 0, measure: str = "jaccard", memory: int = 1 << 30,
          work_dir: str = "", host_lines: int = 10, host_share: float = 0.5,
          identify_languages: bool = False) -> List[dict]:
    """Clusters of near-duplicate records, as `husk dedup` writes them: {"cluster", "size", "main", "members", "urls"}.

    The engine is husk dedup's for the same options: minhash with the Jaccard measure runs the
    corpus engine, its band keys spilled to work_dir beyond a quarter of `memory` bytes.
    measure="containment" (minhash) finds text reuse: the share of the smaller text's shingles found in the other.
    threshold: 0.5 (Jaccard) or 0.1 (containment) unless given.

    Records are dicts with an "id" and a "text" (signed here with the collection's own statistics)
    or a "sig" (from `husk sign` or husk.sign); "language" keeps comparisons within a language
    (a record without one is compared with every record, unless identify_languages, as
    `husk dedup --identify-languages`, identifies its text's language first).
    Before a text is signed, the lines that recur in at least host_lines records of its "url"'s
    host and in host_share of them (the site's frame) are left out, as husk dedup --host-lines
    does; host_lines=0 turns it off.
    """

class DedupIndex:
    """The near-duplicate index of `husk serve`: persistent (LMDB) at `path`, or in a temporary directory.

    It decides and clusters as `husk dedup --method minhash`: candidates from the minhash bands
    (and from simhash tables when `idf`, a `husk idf build` file, is given), verified on the shingle
    sketches' Jaccard similarity >= threshold, within a language; clusters are the connected
    components of the verified pairs, keyed by their earliest page, and a page is answered
    duplicate_of the earliest page it near-duplicates. Adding an id again replaces that page.
    measure="containment" finds text reuse instead (husk dedup --measure containment): a page whose
    shingles lie largely inside another's, candidates from shared sketch values, threshold the
    smallest containment (default 0.1; Jaccard's default 0.5), and duplicate_of's "contained"
    says which text lies inside the other ("page" or "match"). An index keeps the measure and
    threshold it was created with. dedup_paragraphs=N leaves out of each page's stored text the
    paragraphs N pages indexed before it held (husk serve --dedup-paragraphs); add() then also
    returns the "text" kept and "paragraphs_dropped" when any left. A page given as text with a
    url is signed without the lines that recur in at least host_lines of the stored pages of its
    URL's host, and in at least host_share of them, itself counted (husk dedup --host-lines
    --host-share; the counts persist in the index); add() then also returns "frame_lines", how
    many left. host_lines=0 turns it off; signatures given as a "sig" dict are taken as they are.
    """
    def __init__(self, path: Optional[str] = None, threshold: Optional[float] = None, simhash_k: int = 3,
                 idf: Optional[str] = None, measure: str = "jaccard", dedup_paragraphs: int = 0,
                 host_lines: int = 10, host_share: float = 0.5) -> None: ...
    def add(self, id: str, text_or_signatures: Union[str, dict], url: str = "") -> dict:
        """Indexes a page by its clean text or its signatures (a "sig" dict from husk.sign / husk sign).

        Returns {"cluster": id, "duplicate_of": {"id", "url", "measure", "score"[, "contained"]} or None}.
        """
    def add_many(self, pages: Iterable[Union[Tuple, dict]]) -> List[dict]:
        """Many pages in one commit: (id, text_or_signatures[, url]) tuples or {"id", "text" or "sig", "url"} dicts.

        One verdict per page in order; {"error": ...} for a page the index refuses.
        """
    def remove(self, id: str) -> bool:
        """Removes a page from every table (its cluster keeps its other pages); False when it was not there."""
    def get(self, id: str) -> Optional[dict]:
        """The stored record of a page (what husk serve's GET /v1/pages/ID returns), or None."""
    def query(self, text_or_signatures: Union[str, dict], url: str = "") -> List[dict]:
        """Indexed pages that near-duplicate a text or signatures, best first:
        [{"id", "url", "measure", "score"}], with "contained" under the containment measure.
        A text with a url is signed as add() would sign it, without its host's frame lines."""
    def __len__(self) -> int: ...
    def stats(self) -> dict:
        """The counts husk db stats prints: {"pages", "clusters", "duplicates", "band_postings",
        "simhash_postings", "bytes_on_disk", "used_bytes"}."""
    def verify(self, exhaustive: bool = False) -> List[str]:
        """husk db verify: every posting points at a stored page and every page has its postings;
        records, clusters and counters agree. The problems found; [] when clean."""
    def compact(self, path: str) -> None:
        """husk db compact: a compacted copy of the index in an empty directory (the backup), which
        DedupIndex(path) opens with the same settings. husk.Error when path already holds an index."""
    def export(self, path: str) -> None:
        """husk db export: every stored record, one JSON line each in id order, to the file at path
        (written to path.partial and renamed when whole). A damaged record is left out, the others
        written, and husk.Error names it."""

class PageReader:
    def __init__(self, paths: List[str]) -> None: ...
    def __iter__(self) -> "PageReader": ...
    def __next__(self) -> dict: ...
    def __len__(self) -> int:
        """The number of pages when the paths tell it before reading (HTML files, URLs); TypeError otherwise."""

def read(*paths: str) -> PageReader:
    """Pages of HTML files, directories, WARC and JSONL files and http(s) URLs, as the CLI reads them.

    Each page: {"id", "url", "html" (bytes; str for JSONL input), "content_type", "error"}.
    """
