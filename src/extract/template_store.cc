// The template store (husk/extract.h, "Cross-page templates").
#include <lmdb.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <shared_mutex>

#include "base/bytes.h"
#include "extract/template_format.h"

namespace husk {

namespace {

constexpr char kMagic[8] = {'H', 'U', 'S', 'K', 'T', 'P', 'L', '1'};

Status lmdb_status(int rc, const std::string& what) {
  return Status(Code::kIo, what + ": " + mdb_strerror(rc));
}

}  // namespace

std::string serialize(const TemplateModel& m) {
  std::string out(kMagic, sizeof(kMagic));
  out.push_back(static_cast<char>(m.learner));
  put_bytes<uint64_t>(out, m.pages);
  put_bytes<uint32_t>(out, static_cast<uint32_t>(m.reference.size()));
  for (uint32_t v : m.reference) put_bytes<uint32_t>(out, v);
  out.append(reinterpret_cast<const char*>(m.reference_template.data()), m.reference_template.size());
  put_bytes<uint32_t>(out, static_cast<uint32_t>(m.template_set.size()));
  for (uint32_t v : m.template_set) put_bytes<uint32_t>(out, v);
  return out;
}

std::optional<TemplateModel> deserialize_template(std::string_view bytes) {
  if (bytes.size() < sizeof(kMagic) + 1 || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) return std::nullopt;
  ByteReader r{bytes.substr(sizeof(kMagic))};
  TemplateModel m;
  const char learner = r.take<char>();
  if (learner != static_cast<char>(TemplateLearner::kInfholder) && learner != static_cast<char>(TemplateLearner::kInbreeding))
    return std::nullopt;
  m.learner = static_cast<TemplateLearner>(learner);
  m.pages = r.take<uint64_t>();
  uint32_t n = r.take<uint32_t>();
  if (!r.ok || r.in.size() < static_cast<std::size_t>(n) * 5) return std::nullopt;
  for (uint32_t i = 0; i < n; ++i) m.reference.push_back(r.take<uint32_t>());
  m.reference_template.assign(r.in.begin(), r.in.begin() + n);
  r.in.remove_prefix(n);
  uint32_t t = r.take<uint32_t>();
  if (!r.ok || r.in.size() != static_cast<std::size_t>(t) * 4) return std::nullopt;
  for (uint32_t i = 0; i < t; ++i) m.template_set.push_back(r.take<uint32_t>());
  return m;
}

// Models learned or read in this process, by group; with an environment,
// also LMDB's copy. A model read from LMDB is kept in memory, so a page of a
// known site costs one map lookup after the first.
struct TemplateStore::Impl {
  mutable std::shared_mutex mutex;
  mutable std::map<std::string, std::shared_ptr<const TemplateModel>, std::less<>> models;
  MDB_env* env = nullptr;
  MDB_dbi dbi = 0;
  ~Impl() {
    if (env != nullptr) mdb_env_close(env);
  }

  std::shared_ptr<const TemplateModel> read(const std::string& group) const {
    if (env == nullptr) return nullptr;
    MDB_txn* txn = nullptr;
    if (mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn) != 0) return nullptr;
    MDB_val key{group.size(), const_cast<char*>(group.data())};
    MDB_val val{};
    std::shared_ptr<const TemplateModel> out;
    if (mdb_get(txn, dbi, &key, &val) == 0)
      if (auto m = deserialize_template(std::string_view(static_cast<const char*>(val.mv_data), val.mv_size)))
        out = std::make_shared<const TemplateModel>(std::move(*m));
    mdb_txn_abort(txn);
    return out;
  }
};

TemplateStore::TemplateStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TemplateStore::~TemplateStore() = default;

std::shared_ptr<TemplateStore> TemplateStore::in_memory() {
  return std::shared_ptr<TemplateStore>(new TemplateStore(std::make_unique<Impl>()));
}

Result<std::shared_ptr<TemplateStore>> TemplateStore::open(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status(Code::kIo, dir + ": " + ec.message());
  auto impl = std::make_unique<Impl>();
  int rc = mdb_env_create(&impl->env);
  if (rc != 0) return lmdb_status(rc, dir);
  // 1 GiB of address space; LMDB only uses what it writes.
  rc = mdb_env_set_mapsize(impl->env, std::size_t(1) << 30);
  if (rc == 0) rc = mdb_env_open(impl->env, dir.c_str(), 0, 0664);
  if (rc != 0) return lmdb_status(rc, dir + ": cannot open the template store");
  MDB_txn* txn = nullptr;
  rc = mdb_txn_begin(impl->env, nullptr, 0, &txn);
  if (rc != 0) return lmdb_status(rc, dir);
  rc = mdb_dbi_open(txn, nullptr, 0, &impl->dbi);
  if (rc == 0) {
    rc = mdb_txn_commit(txn);
  } else {
    mdb_txn_abort(txn);
  }
  if (rc != 0) return lmdb_status(rc, dir);
  return std::shared_ptr<TemplateStore>(new TemplateStore(std::move(impl)));
}

Status TemplateStore::put(const std::string& group, const TemplateModel& model) {
  auto shared = std::make_shared<const TemplateModel>(model);
  if (impl_->env != nullptr) {
    std::string value = serialize(model);
    MDB_txn* txn = nullptr;
    int rc = mdb_txn_begin(impl_->env, nullptr, 0, &txn);
    if (rc != 0) return lmdb_status(rc, "template store");
    MDB_val key{group.size(), const_cast<char*>(group.data())};
    MDB_val val{value.size(), value.data()};
    rc = mdb_put(txn, impl_->dbi, &key, &val, 0);
    if (rc != 0) {
      mdb_txn_abort(txn);
      return lmdb_status(rc, "template store: " + group);
    }
    rc = mdb_txn_commit(txn);
    if (rc != 0) return lmdb_status(rc, "template store commit");
  }
  std::unique_lock lock(impl_->mutex);
  impl_->models[group] = std::move(shared);
  return Status();
}

std::shared_ptr<const TemplateModel> TemplateStore::get(const std::string& group) const {
  {
    std::shared_lock lock(impl_->mutex);
    auto it = impl_->models.find(group);
    if (it != impl_->models.end()) return it->second;
  }
  std::shared_ptr<const TemplateModel> read = impl_->read(group);
  if (read) {
    std::unique_lock lock(impl_->mutex);
    impl_->models.try_emplace(group, read);
  }
  return read;
}

std::shared_ptr<const TemplateModel> TemplateStore::find(std::string_view url, std::string_view id) const {
  for (int level = 0; level <= 8; ++level)
    if (auto m = get(site_group(url, id, level))) return m;
  return nullptr;
}

}  // namespace husk
