#include "extract/model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <mutex>

#include "extract/xgboost_library.h"

namespace husk {

struct TreeArrays {
  std::vector<double> left, right, feature, value, default_left;
};

struct TreeModel::Handle {
  std::once_flag once;
  Status loaded;
  BoosterHandle booster = nullptr;
  ~Handle() {
    if (booster != nullptr) xgboost().booster_free(booster);
  }
};

TreeModel::TreeModel() : handle_(std::make_unique<Handle>()) {}
TreeModel::~TreeModel() = default;

namespace {

// Reads a model as XGBoost saves it (JSON or UBJSON: learner.feature_names,
// learner.attributes, learner.learner_model_param, learner.objective.name,
// and under learner.gradient_booster.model the trees' node arrays and
// tree_info) as the parser meets it, without building the document: a
// model is a quarter of a million numbers, and husk reads its two at every
// start. Each value is placed by the keys above it.
class ModelReader {
 public:
  using Json = nlohmann::json;

  std::vector<std::string> feature_names;
  std::map<std::string, std::string> attributes;
  std::map<std::string, std::string> params;  // learner_model_param
  std::string objective;
  std::string booster;  // gradient_booster.name
  std::vector<double> tree_info;
  std::vector<TreeArrays> trees;
  std::string error;

  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(Json::number_integer_t v) { return number(static_cast<double>(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return number(static_cast<double>(v)); }
  bool number_float(Json::number_float_t v, const std::string&) { return number(v); }
  bool binary(Json::binary_t&) { return true; }
  bool string(std::string& v) {
    const std::size_t n = path_.size();
    if (n == 3 && at({"learner", "feature_names", kItem})) feature_names.push_back(v);
    else if (n == 3 && at({"learner", "attributes"})) attributes[path_[2]] = v;
    else if (n == 3 && at({"learner", "learner_model_param"})) params[path_[2]] = v;
    else if (n == 3 && at({"learner", "objective", "name"})) objective = v;
    else if (n == 3 && at({"learner", "gradient_booster", "name"})) booster = v;
    return true;
  }
  bool start_object(std::size_t) {
    if (path_.size() == 5 && at({"learner", "gradient_booster", "model", "trees", kItem})) trees.emplace_back();
    path_.emplace_back();
    return true;
  }
  bool key(std::string& k) {
    path_.back() = k;
    return true;
  }
  bool end_object() {
    path_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    path_.emplace_back(kItem);
    target_ = nullptr;
    const std::size_t n = path_.size();
    if (n == 5 && at({"learner", "gradient_booster", "model", "tree_info", kItem})) {
      target_ = &tree_info;
    } else if (n == 7 && !trees.empty() && at({"learner", "gradient_booster", "model", "trees", kItem})) {
      TreeArrays& t = trees.back();
      const std::string& k = path_[5];
      target_ = k == "left_children"      ? &t.left
                : k == "right_children"   ? &t.right
                : k == "split_indices"    ? &t.feature
                : k == "split_conditions" ? &t.value
                : k == "default_left"     ? &t.default_left
                                          : nullptr;
    }
    if (target_ != nullptr) target_depth_ = n;
    return true;
  }
  bool end_array() {
    path_.pop_back();
    target_ = nullptr;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
    error = "not a model XGBoost saved (unreadable at byte " + std::to_string(position) + ")";
    return false;
  }

 private:
  static constexpr std::string_view kItem = "[]";  // an array's level in the path
  std::vector<std::string> path_;                  // each open object's key, kItem for each open array
  std::vector<double>* target_ = nullptr;          // where the open array's numbers go
  std::size_t target_depth_ = 0;

  bool number(double v) {
    if (target_ != nullptr && path_.size() == target_depth_) target_->push_back(v);
    return true;
  }
  // Whether the path starts with `keys`.
  bool at(std::initializer_list<std::string_view> keys) const {
    if (path_.size() < keys.size()) return false;
    std::size_t i = 0;
    for (std::string_view k : keys)
      if (path_[i++] != k) return false;
    return true;
  }
};

// A number XGBoost writes as a string ("5E-1"), or false.
bool number_text(const std::map<std::string, std::string>& params, const char* key, float* out) {
  auto it = params.find(key);
  if (it == params.end() || it->second.empty()) return false;
  char* end = nullptr;
  *out = std::strtof(it->second.c_str(), &end);
  return end == it->second.c_str() + it->second.size();
}

}  // namespace

Result<std::shared_ptr<const TreeModel>> TreeModel::load(std::string_view bytes, const std::string& source) {
  auto bad = [&](const std::string& why) { return Status(Code::kInvalidArgument, source + ": " + why); };
  // JSON text opens with '{' and a quoted key, UBJSON with '{' and a
  // length marker.
  std::size_t first = 0;
  while (first < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[first]))) ++first;
  if (first + 1 >= bytes.size() || bytes[first] != '{') return bad("not a model XGBoost saved as JSON or UBJSON");
  const char next = bytes[first + 1];
  const bool text = next == '"' || next == '}' || std::isspace(static_cast<unsigned char>(next));
  ModelReader reader;
  const bool read = nlohmann::json::sax_parse(bytes.begin(), bytes.end(), &reader,
                                              text ? nlohmann::json::input_format_t::json
                                                   : nlohmann::json::input_format_t::ubjson);
  if (!read) return bad(reader.error.empty() ? "not a model XGBoost saved" : reader.error);
  std::shared_ptr<TreeModel> model(new TreeModel());
  model->owned_bytes_.assign(bytes);
  model->bytes_ = model->owned_bytes_;
  model->feature_names_ = std::move(reader.feature_names);
  model->attributes_ = std::move(reader.attributes);
  if (Status st = model->build_trees(reader.params, reader.objective, reader.booster, reader.tree_info, reader.trees);
      !st.ok())
    return bad(st.message());
  return std::shared_ptr<const TreeModel>(std::move(model));
}

namespace {

// The packed form: this line, the metadata's length (8 bytes), the
// metadata as JSON, then the nodes as husk holds them.
constexpr std::string_view kPackedMagic = "husk packed trees 2\n";

}  // namespace

std::string TreeModel::packed() const {
  nlohmann::json meta = {{"feature_names", feature_names_}, {"attributes", attributes_},
                         {"rounds", rounds_},               {"base_margin", base_margin_},
                         {"tree_start", tree_start_},       {"tree_class", tree_class_},
                         {"tree_depth", tree_depth_},
                         {"classes", classes_},             {"features", features_},
                         {"softmax", softmax_},             {"nodes", nodes_.size()}};
  const std::string text = meta.dump();
  const uint64_t length = text.size();
  std::string out(kPackedMagic);
  out.append(reinterpret_cast<const char*>(&length), sizeof(length));
  out += text;
  out.append(reinterpret_cast<const char*>(nodes_.data()), nodes_.size() * sizeof(Node));
  return out;
}

Result<std::shared_ptr<const TreeModel>> TreeModel::load_packed(std::string_view packed, std::string_view original,
                                                                const std::string& source) {
  auto bad = [&]() { return Status(Code::kCorrupt, source + ": not a model husk packed"); };
  uint64_t length = 0;
  if (packed.substr(0, kPackedMagic.size()) != kPackedMagic || packed.size() < kPackedMagic.size() + sizeof(length))
    return bad();
  packed.remove_prefix(kPackedMagic.size());
  std::memcpy(&length, packed.data(), sizeof(length));
  packed.remove_prefix(sizeof(length));
  if (length > packed.size()) return bad();
  const nlohmann::json meta = nlohmann::json::parse(packed.substr(0, length), nullptr, false);
  packed.remove_prefix(length);
  if (!meta.is_object()) return bad();
  std::shared_ptr<TreeModel> model(new TreeModel());
  try {
    model->feature_names_ = meta.at("feature_names").get<std::vector<std::string>>();
    model->attributes_ = meta.at("attributes").get<std::map<std::string, std::string>>();
    model->rounds_ = meta.at("rounds").get<int>();
    model->base_margin_ = meta.at("base_margin").get<float>();
    model->tree_start_ = meta.at("tree_start").get<std::vector<std::size_t>>();
    model->tree_class_ = meta.at("tree_class").get<std::vector<uint32_t>>();
    model->tree_depth_ = meta.at("tree_depth").get<std::vector<uint32_t>>();
    model->classes_ = meta.at("classes").get<std::size_t>();
    model->features_ = meta.at("features").get<std::size_t>();
    model->softmax_ = meta.at("softmax").get<bool>();
    const auto nodes = meta.at("nodes").get<std::size_t>();
    if (packed.size() != nodes * sizeof(Node) || model->classes_ == 0 ||
        model->tree_start_.size() != model->tree_class_.size() ||
        model->tree_start_.size() != model->tree_depth_.size() ||
        model->tree_start_.size() != static_cast<std::size_t>(model->rounds_) * model->classes_)
      return bad();
    for (std::size_t t = 0; t < model->tree_start_.size(); ++t)
      if (model->tree_start_[t] >= nodes || model->tree_class_[t] >= model->classes_) return bad();
    model->nodes_.resize(nodes);
    std::memcpy(model->nodes_.data(), packed.data(), packed.size());
  } catch (const nlohmann::json::exception&) {
    return bad();
  }
  model->bytes_ = original;
  return std::shared_ptr<const TreeModel>(std::move(model));
}

// The trees as XGBoost writes them: per tree the arrays left_children,
// right_children, split_indices, split_conditions, default_left (a leaf's
// score in split_conditions), the class of each tree (tree_info), and the
// base score.
Status TreeModel::build_trees(const std::map<std::string, std::string>& params, const std::string& objective,
                              const std::string& booster, const std::vector<double>& tree_info,
                              const std::vector<TreeArrays>& trees) {
  auto bad = [](const std::string& why) { return Status(Code::kInvalidArgument, why); };
  if (booster != "gbtree") return bad("husk walks tree models (gbtree), not '" + booster + "'");
  float base_score = 0, features = 0, classes = 0;
  if (!number_text(params, "base_score", &base_score) || !number_text(params, "num_feature", &features) ||
      !number_text(params, "num_class", &classes))
    return bad("the model lacks its base score, feature count or class count");
  features_ = static_cast<std::size_t>(features);
  // The base score in raw-score space, as XGBoost turns it: log-odds for
  // the logistic objective, as it is for softmax.
  if (objective == "binary:logistic") {
    if (!(base_score > 0 && base_score < 1)) return bad("the base score is not a probability");
    base_margin_ = -std::log(1.0f / base_score - 1.0f);
    classes_ = 1;
  } else if (objective == "multi:softprob") {
    softmax_ = true;
    base_margin_ = base_score;
    classes_ = static_cast<std::size_t>(classes);
    if (classes_ < 2) return bad("a softmax model of fewer than two classes");
  } else {
    return bad("husk scores logistic and softmax models, not '" + objective + "'");
  }
  if (trees.empty() || tree_info.size() != trees.size() || trees.size() % classes_ != 0)
    return bad("the model's trees do not match its classes");
  rounds_ = static_cast<int>(trees.size() / classes_);
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const TreeArrays& tree = trees[t];
    const std::size_t n = tree.left.size();
    if (n == 0 || tree.right.size() != n || tree.feature.size() != n || tree.value.size() != n ||
        tree.default_left.size() != n || !(tree_info[t] >= 0 && tree_info[t] < static_cast<double>(classes_)))
      return bad("tree " + std::to_string(t) + " is malformed");
    tree_class_.push_back(static_cast<uint32_t>(tree_info[t]));
    tree_start_.push_back(nodes_.size());
    // Each node's depth, its parent's and one: a child comes after its
    // parent (checked below), so the parent's is known first.
    std::vector<uint32_t> depth(n, 0);
    uint32_t deepest = 0;
    for (std::size_t i = 0; i < n; ++i) {
      Node node;
      node.value = static_cast<float>(tree.value[i]);
      node.left = node.right = static_cast<uint32_t>(i);  // a leaf: its own child
      deepest = std::max(deepest, depth[i]);
      if (tree.left[i] != -1) {
        // A child comes after its parent, so every walk ends at a leaf
        // within the depth counted.
        const double l = tree.left[i], r = tree.right[i], f = tree.feature[i];
        if (!(l > static_cast<double>(i) && r > static_cast<double>(i) && l < static_cast<double>(n) &&
              r < static_cast<double>(n) && f >= 0 && f < static_cast<double>(features_)))
          return bad("tree " + std::to_string(t) + " has a split husk cannot walk");
        node.left = static_cast<uint32_t>(l);
        node.right = static_cast<uint32_t>(r);
        node.feature = static_cast<uint32_t>(f) | (tree.default_left[i] != 0 ? kDefaultLeft : 0);
        for (uint32_t child : {node.left, node.right}) depth[child] = std::max(depth[child], depth[i] + 1);
      }
      nodes_.push_back(node);
    }
    tree_depth_.push_back(deepest);
  }
  if (!feature_names_.empty() && feature_names_.size() != features_)
    return bad("the model names " + std::to_string(feature_names_.size()) + " features and takes " +
               std::to_string(features_));
  return Status();
}

std::string TreeModel::attribute(const std::string& key) const {
  auto it = attributes_.find(key);
  return it == attributes_.end() ? std::string() : it->second;
}

Status TreeModel::check_columns(std::size_t columns) const {
  if (columns != features_)
    return Status(Code::kInvalidArgument,
                  "the model takes " + std::to_string(features_) + " features, not " + std::to_string(columns));
  return Status();
}

// XGBoost's rule (RegTree::GetNext): left when the feature is below the
// split, a missing feature to the side the split learned for it.
inline uint32_t TreeModel::Node::next(float v) const {
  const bool go_left = (v < value) | (std::isnan(v) & ((feature & kDefaultLeft) != 0));
  return go_left ? left : right;
}

// Rows go through the trees 64 at a time, each tree over the block's rows
// before the next, so a tree's nodes stay in cache; each row's score adds
// its trees in their order, from the base, in float as XGBoost does, so
// the sums are XGBoost's to the bit. The block is copied column by column
// first, so that the rows a split reads lie side by side rather than a
// row's width apart; eight rows walk a tree together, each step a select
// rather than a branch, and every walk takes its tree's depth in steps (a
// leaf reached early is its own child), so the eight chains of loads
// overlap. 1.39x the rows a second of the walk row by row
// (tests/bench/extract_bench.cc, BlockModel, on AEB; each layout alone
// gained nothing or lost).
std::vector<float> TreeModel::walk(const float* rows, std::size_t n, int begin, int end) const {
  constexpr std::size_t kBlockRows = 64, kLanes = 8;
  std::vector<float> out(n * classes_, base_margin_);
  const std::size_t first = static_cast<std::size_t>(begin) * classes_;
  const std::size_t last = static_cast<std::size_t>(end) * classes_;
  // Column f of the block at [f * kBlockRows]; the lanes past a short
  // block's last row read what is there and are not added.
  std::vector<float> block(features_ * kBlockRows);
  for (std::size_t from = 0; from < n; from += kBlockRows) {
    const std::size_t to = std::min(n, from + kBlockRows);
    for (std::size_t r = from; r < to; ++r)
      for (std::size_t f = 0; f < features_; ++f) block[f * kBlockRows + (r - from)] = rows[r * features_ + f];
    for (std::size_t t = first; t < last; ++t) {
      const Node* nodes = nodes_.data() + tree_start_[t];
      const std::size_t c = tree_class_[t];
      for (std::size_t r = from; r < to; r += kLanes) {
        const float* lanes = block.data() + (r - from);
        uint32_t at[kLanes] = {};
        for (uint32_t step = tree_depth_[t]; step > 0; --step)
          for (std::size_t k = 0; k < kLanes; ++k) {
            const Node& node = nodes[at[k]];
            at[k] = node.next(lanes[(node.feature & ~kDefaultLeft) * kBlockRows + k]);
          }
        for (std::size_t k = 0; k < kLanes && r + k < to; ++k) out[(r + k) * classes_ + c] += nodes[at[k]].value;
      }
    }
  }
  return out;
}

Result<std::vector<float>> TreeModel::reference_margins(const float* rows, std::size_t n, std::size_t columns,
                                                        int begin, int end) const {
  std::vector<float> out;
  if (n == 0) return out;
  if (Status st = check_columns(columns); !st.ok()) return st;
  std::call_once(handle_->once, [&] {
    if (Status st = xgboost_loaded(); !st.ok()) {
      handle_->loaded = st;
      return;
    }
    if (xgboost().booster_create(nullptr, 0, &handle_->booster) != 0 ||
        xgboost().booster_load_model_from_buffer(handle_->booster, bytes_.data(), bytes_.size()) != 0 ||
        xgboost().booster_set_param(handle_->booster, "nthread", "1") != 0)
      handle_->loaded = xgboost_error("XGBoost cannot load the model");
  });
  if (!handle_->loaded.ok()) return handle_->loaded;
  char array[256];
  std::snprintf(array, sizeof(array),
                "{\"data\": [%llu, true], \"shape\": [%zu, %zu], \"typestr\": \"<f4\", \"version\": 3}",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(rows)), n, columns);
  char config[256];
  std::snprintf(config, sizeof(config),
                "{\"type\": 1, \"training\": false, \"iteration_begin\": %d, \"iteration_end\": %d, "
                "\"strict_shape\": false, \"missing\": NaN, \"cache_id\": 0}",
                begin, end);
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0;
  const float* result = nullptr;
  if (xgboost().booster_predict_from_dense(handle_->booster, array, config, nullptr, &shape, &dim, &result) != 0)
    return xgboost_error("prediction");
  bst_ulong size = 1;
  for (bst_ulong d = 0; d < dim; ++d) size *= shape[d];
  out.assign(result, result + size);
  return out;
}

Result<std::vector<float>> TreeModel::predict(const std::vector<float>& rows, std::size_t columns) const {
  if (columns == 0 || rows.empty()) return std::vector<float>();
  if (Status st = check_columns(columns); !st.ok()) return st;
  std::vector<float> out = walk(rows.data(), rows.size() / columns, 0, rounds_);
  if (!softmax_) {
    for (float& v : out) v = 1.0f / (1.0f + std::exp(-v));
    return out;
  }
  // Softmax over each row's classes, from its largest score.
  for (std::size_t r = 0; r < out.size(); r += classes_) {
    float* v = out.data() + r;
    const float top = *std::max_element(v, v + classes_);
    double sum = 0;
    for (std::size_t c = 0; c < classes_; ++c) {
      v[c] = std::exp(v[c] - top);
      sum += v[c];
    }
    for (std::size_t c = 0; c < classes_; ++c) v[c] /= static_cast<float>(sum);
  }
  return out;
}

Result<std::vector<float>> TreeModel::margins(const float* rows, std::size_t n, std::size_t columns, int begin,
                                              int end) const {
  if (n == 0) return std::vector<float>();
  if (Status st = check_columns(columns); !st.ok()) return st;
  if (classes_ != 1) return Status(Code::kInvalidArgument, "margins are a binary model's");
  begin = std::clamp(begin, 0, rounds_);
  end = std::clamp(end, begin, rounds_);
  std::vector<float> out = walk(rows, n, begin, end);
  for (float& v : out) v -= base_margin_;
  return out;
}

namespace {

// How many of the first rounds' best rows are scored whole first when a
// page's best block is in doubt (above_threshold).
constexpr std::size_t kBestRows = 8;

// The margins of rows [0, n) for trees [begin, end), kDeadlineRows at a time.
Result<std::vector<float>> margins_by_chunk(const TreeModel& model, const float* rows, std::size_t n,
                                            std::size_t columns, int begin, int end, const Deadline& deadline) {
  std::vector<float> out;
  out.reserve(n);
  for (std::size_t from = 0; from < n; from += kDeadlineRows) {
    if (deadline.passed()) return Status(Code::kTimeout, "the page's time ran out while its blocks were scored");
    const std::size_t count = std::min(kDeadlineRows, n - from);
    Result<std::vector<float>> part = model.margins(rows + from * columns, count, columns, begin, end);
    if (!part.ok()) return part.status();
    if (part->size() != count) return Status(Code::kInternal, "the model gave " + std::to_string(part->size()) +
                                                                  " scores for " + std::to_string(count) + " rows");
    out.insert(out.end(), part->begin(), part->end());
  }
  return out;
}

}  // namespace

Result<std::vector<uint8_t>> above_threshold(const TreeModel& model, const std::vector<float>& rows,
                                             std::size_t columns, double threshold, const StagedDecision& staged,
                                             const Deadline& deadline, std::vector<float>* probability,
                                             double* page_cut, double* best_out, bool article) {
  std::vector<uint8_t> out;
  if (columns == 0 || rows.empty()) return out;
  const std::size_t n = rows.size() / columns;
  const float base = model.base_margin();
  auto margin_of = [&](double p) { return static_cast<float>(std::log(p / (1.0 - p))) - base; };
  const int all = model.rounds();
  const int share = static_cast<int>(staged.first_share * all);
  const int first = share > 0 && share < all ? share : all;
  Result<std::vector<float>> score = margins_by_chunk(model, rows.data(), n, columns, 0, first, deadline);
  if (!score.ok()) return score.status();
  if (score->size() != n) return Status(Code::kInternal, "the model gave " + std::to_string(score->size()) +
                                                             " scores for " + std::to_string(n) + " rows");
  // Rows the remaining rounds have scored (every row when there are none).
  std::vector<uint8_t> finished(n, first < all ? 0 : 1);
  auto finish = [&](auto&& wanted) -> Status {
    std::vector<std::size_t> open;
    std::vector<float> open_rows;
    for (std::size_t i = 0; i < n; ++i) {
      if (finished[i] || !wanted(i)) continue;
      open.push_back(i);
      open_rows.insert(open_rows.end(), rows.begin() + static_cast<std::ptrdiff_t>(i * columns),
                       rows.begin() + static_cast<std::ptrdiff_t>((i + 1) * columns));
    }
    if (open.empty()) return Status();
    Result<std::vector<float>> rest =
        margins_by_chunk(model, open_rows.data(), open.size(), columns, first, all, deadline);
    if (!rest.ok()) return rest.status();
    if (rest->size() != open.size()) return Status(Code::kInternal, "the model scored the wrong number of rows");
    for (std::size_t k = 0; k < open.size(); ++k) {
      (*score)[open[k]] += (*rest)[k];
      finished[open[k]] = 1;
    }
    return Status();
  };
  // The page's best block (page_threshold). Unless the first rounds already
  // put it beyond doubt, it is found by scoring whole the rows that may turn
  // out best: the remaining rounds move a row by less than the settled
  // margin, so a row that many log-odds below a whole score cannot overtake
  // it. The first rounds' few best go first; most pages need no more.
  float best = *std::max_element(score->begin(), score->end());
  const float sure = margin_of(kSureProbability);
  if (first < all && best < sure + staged.settled_margin) {
    std::vector<float> top(*score);
    const std::size_t few = std::min<std::size_t>(kBestRows, n);
    std::nth_element(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(few - 1), top.end(), std::greater<>());
    const float first_few = top[few - 1];
    if (Status st = finish([&](std::size_t i) { return (*score)[i] >= first_few; }); !st.ok()) return st;
    auto whole_best = [&] {
      float b = -std::numeric_limits<float>::infinity();
      for (std::size_t i = 0; i < n; ++i)
        if (finished[i]) b = std::max(b, (*score)[i]);
      return b;
    };
    best = whole_best();
    if (best < sure) {
      const float reach = best - staged.settled_margin;
      if (Status st = finish([&](std::size_t i) { return (*score)[i] > reach; }); !st.ok()) return st;
      best = whole_best();
    }
  }
  const double best_probability = 1.0 / (1.0 + std::exp(-(static_cast<double>(best) + base)));
  const double page = page_threshold(threshold, best_probability, article);
  if (page_cut != nullptr) *page_cut = page;
  if (best_out != nullptr) *best_out = best_probability;
  const float cut = margin_of(page);
  if (Status st = finish([&](std::size_t i) { return std::fabs((*score)[i] - cut) < staged.settled_margin; });
      !st.ok())
    return st;
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = (*score)[i] >= cut;
  if (probability != nullptr) {
    probability->resize(n);
    for (std::size_t i = 0; i < n; ++i) (*probability)[i] = 1.0f / (1.0f + std::exp(-((*score)[i] + base)));
  }
  return out;
}

}  // namespace husk
