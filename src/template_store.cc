#include "husk/template_store.h"

#include <lmdb.h>

#include <cstring>
#include <filesystem>

namespace husk {

namespace {

constexpr char kMagic[8] = {'H', 'U', 'S', 'K', 'T', 'P', 'L', '1'};

void put_u32(std::string& out, uint32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof(v)); }
void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof(v)); }

struct Reader {
  std::string_view in;
  bool ok = true;
  template <typename T>
  T take() {
    T v{};
    if (in.size() < sizeof(T)) {
      ok = false;
      return v;
    }
    std::memcpy(&v, in.data(), sizeof(T));
    in.remove_prefix(sizeof(T));
    return v;
  }
};

Status lmdb_status(int rc, const std::string& what) {
  return Status(Code::kIo, what + ": " + mdb_strerror(rc));
}

}  // namespace

std::string serialize(const TemplateModel& m) {
  std::string out(kMagic, sizeof(kMagic));
  out.push_back(static_cast<char>(m.learner));
  put_u64(out, m.pages);
  put_u32(out, static_cast<uint32_t>(m.reference.size()));
  for (uint32_t v : m.reference) put_u32(out, v);
  out.append(reinterpret_cast<const char*>(m.reference_template.data()), m.reference_template.size());
  put_u32(out, static_cast<uint32_t>(m.template_set.size()));
  for (uint32_t v : m.template_set) put_u32(out, v);
  return out;
}

std::optional<TemplateModel> deserialize_template(std::string_view bytes) {
  if (bytes.size() < sizeof(kMagic) + 1 || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) return std::nullopt;
  Reader r{bytes.substr(sizeof(kMagic))};
  TemplateModel m;
  m.learner = static_cast<TemplateLearner>(r.take<char>());
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

struct TemplateStore::Env {
  MDB_env* env = nullptr;
  MDB_dbi dbi = 0;
  ~Env() {
    if (env != nullptr) mdb_env_close(env);
  }
};

TemplateStore::TemplateStore(std::unique_ptr<Env> env) : env_(std::move(env)) {}
TemplateStore::~TemplateStore() = default;

Result<std::unique_ptr<TemplateStore>> TemplateStore::open(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status(Code::kIo, dir + ": " + ec.message());
  auto env = std::make_unique<Env>();
  int rc = mdb_env_create(&env->env);
  if (rc != 0) return lmdb_status(rc, dir);
  // 1 GiB of address space; LMDB only uses what it writes.
  mdb_env_set_mapsize(env->env, std::size_t(1) << 30);
  rc = mdb_env_open(env->env, dir.c_str(), 0, 0664);
  if (rc != 0) return lmdb_status(rc, dir + ": cannot open the template store");
  MDB_txn* txn = nullptr;
  rc = mdb_txn_begin(env->env, nullptr, 0, &txn);
  if (rc != 0) return lmdb_status(rc, dir);
  rc = mdb_dbi_open(txn, nullptr, 0, &env->dbi);
  if (rc == 0) rc = mdb_txn_commit(txn);
  else mdb_txn_abort(txn);
  if (rc != 0) return lmdb_status(rc, dir);
  return std::unique_ptr<TemplateStore>(new TemplateStore(std::move(env)));
}

Status TemplateStore::put(const std::string& group, const TemplateModel& model) {
  std::string value = serialize(model);
  MDB_txn* txn = nullptr;
  int rc = mdb_txn_begin(env_->env, nullptr, 0, &txn);
  if (rc != 0) return lmdb_status(rc, "template store");
  MDB_val key{group.size(), const_cast<char*>(group.data())};
  MDB_val val{value.size(), value.data()};
  rc = mdb_put(txn, env_->dbi, &key, &val, 0);
  if (rc != 0) {
    mdb_txn_abort(txn);
    return lmdb_status(rc, "template store: " + group);
  }
  rc = mdb_txn_commit(txn);
  return rc == 0 ? Status() : lmdb_status(rc, "template store commit");
}

std::optional<TemplateModel> TemplateStore::get(const std::string& group) const {
  MDB_txn* txn = nullptr;
  if (mdb_txn_begin(env_->env, nullptr, MDB_RDONLY, &txn) != 0) return std::nullopt;
  MDB_val key{group.size(), const_cast<char*>(group.data())};
  MDB_val val{};
  std::optional<TemplateModel> out;
  if (mdb_get(txn, env_->dbi, &key, &val) == 0)
    out = deserialize_template(std::string_view(static_cast<const char*>(val.mv_data), val.mv_size));
  mdb_txn_abort(txn);
  return out;
}

std::optional<TemplateModel> TemplateStore::find(std::string_view url, std::string_view id) const {
  for (int level = 0; level <= 8; ++level)
    if (auto m = get(site_group(url, id, level))) return m;
  return std::nullopt;
}

}  // namespace husk
