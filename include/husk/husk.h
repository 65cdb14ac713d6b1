// husk: boilerplate removal and near-duplicate detection for crawled pages.
// The whole public surface, one header per stage as the data flows:
//   ingest     inputs -> RawPage
//   html       decode -> parse -> segment -> Blocks
//   extract    the extractors, their tunables, site rules and templates
//   normalize  clean text -> terms and sentences
//   sign       terms -> signatures; collection statistics
//   dedup      signatures -> pairs -> clusters
//   corpus     dedup() chooses the engine: in memory, or corpus-scale (spilling, MPI ranks)
//   index      the persistent near-duplicate index
//   processor  the one entry point: a page in, its result out
#pragma once

#include "husk/corpus.h"
#include "husk/dedup.h"
#include "husk/extract.h"
#include "husk/html.h"
#include "husk/index.h"
#include "husk/ingest.h"
#include "husk/normalize.h"
#include "husk/processor.h"
#include "husk/record.h"
#include "husk/sign.h"
#include "husk/status.h"
