// Safetensors reader and writer (include/oomkit/core/safetensors.h for the format and the rules).
#include "oomkit/core/safetensors.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"
#include "oomkit/core/write_file.h"

namespace oomkit {

namespace {

using json = nlohmann::json;

struct DtypeRow {
  SafetensorsDtype dtype;
  const char* name;
  size_t bytes;
};

// The spec's dtypes of whole bytes (safetensors/src/tensor.rs `Dtype`).
constexpr DtypeRow kDtypes[] = {
    {SafetensorsDtype::kBool, "BOOL", 1},    {SafetensorsDtype::kU8, "U8", 1},
    {SafetensorsDtype::kI8, "I8", 1},        {SafetensorsDtype::kF8E5M2, "F8_E5M2", 1},
    {SafetensorsDtype::kF8E4M3, "F8_E4M3", 1}, {SafetensorsDtype::kI16, "I16", 2},
    {SafetensorsDtype::kU16, "U16", 2},      {SafetensorsDtype::kF16, "F16", 2},
    {SafetensorsDtype::kBF16, "BF16", 2},    {SafetensorsDtype::kI32, "I32", 4},
    {SafetensorsDtype::kU32, "U32", 4},      {SafetensorsDtype::kF32, "F32", 4},
    {SafetensorsDtype::kF64, "F64", 8},      {SafetensorsDtype::kI64, "I64", 8},
    {SafetensorsDtype::kU64, "U64", 8},      {SafetensorsDtype::kC64, "C64", 8},
};

const DtypeRow& dtype_row(SafetensorsDtype dtype) {
  for (const DtypeRow& row : kDtypes) {
    if (row.dtype == dtype) return row;
  }
  return kDtypes[0];  // unreachable: every enumerator has a row
}

// Thrown from the parser callback; caught in parse_header_json (never escapes).
struct TooDeep {};
struct DuplicateKey {
  std::string key;
};

// Parses the header JSON refusing duplicate keys (the spec: "Duplicate keys are disallowed")
// and nesting deeper than kMaxJsonDepth. nlohmann keeps the last of duplicate keys silently,
// so the callback tracks the keys of every open object.
json parse_header_json(std::string_view text, const std::string& source) {
  std::vector<std::set<std::string>> open_objects;
  const json::parser_callback_t guard = [&open_objects](int depth, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (depth >= kMaxJsonDepth) throw TooDeep{};
        if (event == json::parse_event_t::object_start) open_objects.emplace_back();
        break;
      case json::parse_event_t::object_end:
        if (!open_objects.empty()) open_objects.pop_back();
        break;
      case json::parse_event_t::key:
        if (!open_objects.empty() && parsed.is_string() &&
            !open_objects.back().insert(parsed.get<std::string>()).second) {
          throw DuplicateKey{parsed.get<std::string>()};
        }
        break;
      default:
        break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), guard);
  } catch (const TooDeep&) {
    throw InputError(source, fmt::format("header: JSON nested deeper than {} levels", kMaxJsonDepth));
  } catch (const DuplicateKey& e) {
    throw InputError(source, "header: duplicate key \"" + bounded_excerpt(e.key) + "\" (the format disallows them)");
  } catch (const json::exception& e) {
    throw InputError(source, "header is not valid JSON: " + bounded_excerpt(e.what(), 2 * kMaxErrorExcerptChars));
  }
}

// A JSON integer >= 0 as uint64 (floats, negatives, strings refused).
bool json_uint64(const json& value, uint64_t* out) {
  if (value.is_number_unsigned()) {
    *out = value.get<uint64_t>();
    return true;
  }
  if (value.is_number_integer() && value.get<int64_t>() >= 0) {
    *out = static_cast<uint64_t>(value.get<int64_t>());
    return true;
  }
  return false;
}

SafetensorsTensorInfo parse_tensor_entry(const std::string& name, const json& entry, const std::string& source) {
  const std::string where = "tensor \"" + bounded_excerpt(name) + "\"";
  auto fail = [&](const std::string& message) -> InputError { return InputError(source, where + ": " + message); };
  if (!entry.is_object()) throw fail("expected an object {dtype, shape, data_offsets}, got " + describe_json_value(entry));
  SafetensorsTensorInfo info;
  info.name = name;

  const auto dtype_it = entry.find("dtype");
  if (dtype_it == entry.end()) throw fail("key 'dtype' is missing");
  if (!dtype_it->is_string()) throw fail("key 'dtype': expected a string, got " + describe_json_value(*dtype_it));
  const std::string dtype_name = dtype_it->get<std::string>();
  if (!parse_safetensors_dtype(dtype_name, &info.dtype)) {
    throw fail("unknown or unsupported dtype \"" + bounded_excerpt(dtype_name) +
               "\" (known: BOOL, U8, I8, F8_E5M2, F8_E4M3, I16, U16, F16, BF16, I32, U32, F32, F64, I64, U64, C64)");
  }

  const auto shape_it = entry.find("shape");
  if (shape_it == entry.end()) throw fail("key 'shape' is missing");
  if (!shape_it->is_array()) throw fail("key 'shape': expected an array of integers, got " + describe_json_value(*shape_it));
  if (shape_it->size() > kSafetensorsMaxRank) {
    throw fail(fmt::format("key 'shape': rank {} exceeds {}", shape_it->size(), kSafetensorsMaxRank));
  }
  uint64_t numel = 1;
  bool overflow = false;
  for (size_t i = 0; i < shape_it->size(); ++i) {
    uint64_t dim = 0;
    if (!json_uint64((*shape_it)[i], &dim) || dim > static_cast<uint64_t>(INT64_MAX)) {
      throw fail(fmt::format("key 'shape': dimension {} is {}, expected an integer >= 0", i,
                             describe_json_value((*shape_it)[i])));
    }
    info.shape.push_back(static_cast<int64_t>(dim));
    overflow = overflow || __builtin_mul_overflow(numel, dim, &numel);
  }

  const auto offsets_it = entry.find("data_offsets");
  if (offsets_it == entry.end()) throw fail("key 'data_offsets' is missing");
  if (!offsets_it->is_array() || offsets_it->size() != 2 || !json_uint64((*offsets_it)[0], &info.begin) ||
      !json_uint64((*offsets_it)[1], &info.end)) {
    throw fail("key 'data_offsets': expected [BEGIN, END], two integers >= 0, got " + describe_json_value(*offsets_it));
  }
  if (info.end < info.begin) {
    throw fail(fmt::format("data_offsets [{}, {}]: END is before BEGIN", info.begin, info.end));
  }
  uint64_t nbytes = 0;
  overflow = overflow || __builtin_mul_overflow(numel, safetensors_dtype_bytes(info.dtype), &nbytes);
  if (overflow || numel > static_cast<uint64_t>(INT64_MAX)) {
    throw fail("the shape's size in bytes overflows 64 bits");
  }
  if (info.end - info.begin != nbytes) {
    throw fail(fmt::format("data_offsets [{}, {}] hold {} bytes, but shape {} of {} needs {} bytes", info.begin,
                           info.end, info.end - info.begin, shape_it->dump(), dtype_name, nbytes));
  }
  return info;
}

}  // namespace

const char* safetensors_dtype_name(SafetensorsDtype dtype) { return dtype_row(dtype).name; }

size_t safetensors_dtype_bytes(SafetensorsDtype dtype) { return dtype_row(dtype).bytes; }

bool parse_safetensors_dtype(std::string_view name, SafetensorsDtype* out) {
  for (const DtypeRow& row : kDtypes) {
    if (name == row.name) {
      *out = row.dtype;
      return true;
    }
  }
  return false;
}

int64_t SafetensorsTensorInfo::numel() const {
  int64_t n = 1;
  for (int64_t dim : shape) n *= dim;  // checked against overflow when parsed
  return n;
}

const SafetensorsTensorInfo* SafetensorsHeader::find(std::string_view name) const {
  for (const auto& t : tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

SafetensorsHeader parse_safetensors(std::string_view file_bytes, const std::string& source) {
  if (file_bytes.size() < 8) {
    throw InputError(source, fmt::format("{} bytes: shorter than the 8-byte header length (not a safetensors file)",
                                         file_bytes.size()));
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(file_bytes[static_cast<size_t>(i)]);
  const uint64_t rest = file_bytes.size() - 8;
  if (n > kSafetensorsMaxHeaderBytes) {
    throw InputError(source, fmt::format("header length {} exceeds the format's limit of {} bytes (not a safetensors file?)",
                                         n, kSafetensorsMaxHeaderBytes));
  }
  if (n > rest) {
    throw InputError(source, fmt::format("header length {} runs past the end of the file ({} bytes after the length; truncated?)",
                                         n, rest));
  }
  const std::string_view text = file_bytes.substr(8, n);
  if (text.empty() || text.front() != '{') {
    throw InputError(source, "header does not start with '{' (not a safetensors file?)");
  }
  const json header = parse_header_json(text, source);
  if (!header.is_object()) throw InputError(source, "header: expected a JSON object, got " + describe_json_value(header));

  SafetensorsHeader out;
  out.header_bytes = n;
  out.data_bytes = rest - n;
  for (const auto& item : header.items()) {
    if (item.key() == "__metadata__") {
      if (!item.value().is_object()) {
        throw InputError(source, "__metadata__: expected an object of strings, got " + describe_json_value(item.value()));
      }
      for (const auto& kv : item.value().items()) {
        if (!kv.value().is_string()) {
          throw InputError(source, "__metadata__: key '" + bounded_excerpt(kv.key()) + "': expected a string, got " +
                                       describe_json_value(kv.value()));
        }
        out.metadata[kv.key()] = kv.value().get<std::string>();
      }
      continue;
    }
    // A tensor is looked up by its name: an empty one names nothing (and the writer refuses it).
    if (item.key().empty()) throw InputError(source, "a tensor with an empty name");
    out.tensors.push_back(parse_tensor_entry(item.key(), item.value(), source));
  }
  // The tensors must tile the byte buffer: sorted by offset, each begins where the previous
  // ended, the first at 0 and the last at the end of the file (tensor.rs: InvalidOffset,
  // MetadataIncompleteBuffer). Empty tensors take no bytes.
  std::stable_sort(out.tensors.begin(), out.tensors.end(), [](const auto& a, const auto& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t expected = 0;
  const SafetensorsTensorInfo* previous = nullptr;
  for (const auto& t : out.tensors) {
    if (t.begin != expected) {
      const std::string what = t.begin < expected
          ? "overlaps " + (previous ? "tensor \"" + bounded_excerpt(previous->name) + "\"" : std::string("another tensor"))
          : fmt::format("leaves a gap of {} bytes after {}", t.begin - expected,
                        previous ? "tensor \"" + bounded_excerpt(previous->name) + "\"" : std::string("the header"));
      throw InputError(source, fmt::format("tensor \"{}\": data_offsets [{}, {}] {} (tensors must be packed back to back)",
                                           bounded_excerpt(t.name), t.begin, t.end, what));
    }
    expected = t.end;
    previous = &t;
  }
  if (expected != out.data_bytes) {
    throw InputError(source, fmt::format("the byte buffer holds {} bytes but the tensors cover {} ({})", out.data_bytes,
                                         expected, expected > out.data_bytes ? "truncated file" : "trailing bytes"));
  }
  return out;
}

SafetensorsFile SafetensorsFile::read(const std::string& path, const std::string& field) {
  return from_bytes(read_input_file(path, field, kSafetensorsMaxFileBytes), path);
}

SafetensorsFile SafetensorsFile::from_bytes(std::string bytes, const std::string& source) {
  SafetensorsFile file;
  file.header_ = parse_safetensors(bytes, source);
  file.bytes_ = std::move(bytes);
  file.source_ = source;
  return file;
}

std::string_view SafetensorsFile::data(const SafetensorsTensorInfo& tensor) const {
  return std::string_view(bytes_).substr(8 + header_.header_bytes + tensor.begin, tensor.size_bytes());
}

std::string safetensors_header_bytes(const std::vector<SafetensorsWriteTensor>& tensors,
                                     const std::map<std::string, std::string>& metadata) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::set<std::string> names;
  uint64_t offset = 0;
  for (const auto& t : tensors) {
    if (t.name.empty() || t.name == "__metadata__" || !names.insert(t.name).second) {
      throw std::invalid_argument("safetensors: empty, reserved or duplicate tensor name \"" + t.name + "\"");
    }
    uint64_t numel = 1;
    for (int64_t dim : t.shape) {
      if (dim < 0) throw std::invalid_argument("safetensors: tensor \"" + t.name + "\" has a negative dimension");
      numel *= static_cast<uint64_t>(dim);
    }
    if (numel * safetensors_dtype_bytes(t.dtype) != t.data.size()) {
      throw std::invalid_argument(fmt::format("safetensors: tensor \"{}\" has {} bytes of data, its shape needs {}", t.name,
                                              t.data.size(), numel * safetensors_dtype_bytes(t.dtype)));
    }
    header[t.name] = {{"dtype", safetensors_dtype_name(t.dtype)},
                      {"shape", t.shape},
                      {"data_offsets", {offset, offset + t.data.size()}}};
    offset += t.data.size();
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the buffer starts 8-byte aligned
  std::string out(8, '\0');
  uint64_t n = text.size();
  for (int i = 0; i < 8; ++i, n >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(n & 0xFF);
  return out + text;
}

void write_safetensors_file(const std::string& path, const std::vector<SafetensorsWriteTensor>& tensors,
                            const std::map<std::string, std::string>& metadata, const std::string& field) {
  std::string bytes = safetensors_header_bytes(tensors, metadata);
  size_t total = bytes.size();
  for (const auto& t : tensors) total += t.data.size();
  bytes.reserve(total);
  for (const auto& t : tensors) bytes.append(t.data);
  write_file_durably(path, {bytes}, field);
}

SafetensorsIndex parse_safetensors_index(std::string_view json_text, const std::string& source) {
  const json index = parse_json_input(json_text, source);
  const JsonFields fields(index, source);
  const nlohmann::json* map = fields.find("weight_map");
  if (map == nullptr) fields.fail("weight_map", "is missing (expected {\"tensor name\": \"shard file\", ...})");
  if (!map->is_object()) fields.fail("weight_map", "expected an object, got " + describe_json_value(*map));
  SafetensorsIndex out;
  std::set<std::string> shards;
  for (const auto& item : map->items()) {
    const std::string where = "weight_map: \"" + bounded_excerpt(item.key()) + "\"";
    if (!item.value().is_string()) {
      throw InputError(source, where + ": expected a shard file name, got " + describe_json_value(item.value()));
    }
    const std::string shard = item.value().get<std::string>();
    if (shard.empty() || shard == "." || shard == ".." || shard.find_first_of(std::string("/\\\0", 3)) != std::string::npos) {
      throw InputError(source, where + ": shard \"" + bounded_excerpt(shard) +
                                   "\" is not a file name in the index's folder");
    }
    out.weight_map[item.key()] = shard;
    shards.insert(shard);
  }
  out.shards.assign(shards.begin(), shards.end());
  return out;
}

SafetensorsCheckpoint read_safetensors_checkpoint(const std::string& dir, const std::string& field) {
  namespace fs = std::filesystem;
  check_input_path(dir, field, /*allow_directory=*/true);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(field, "'" + bounded_excerpt(dir, 4096) + "' is not a folder (expected a Hugging Face snapshot folder)");
  }
  const fs::path index_path = fs::path(dir) / "model.safetensors.index.json";
  const fs::path single_path = fs::path(dir) / "model.safetensors";
  SafetensorsCheckpoint out;
  auto add_file = [&out](SafetensorsFile file) {
    const size_t file_index = out.files.size();
    const auto& tensors = file.header().tensors;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const auto [it, inserted] = out.tensors.emplace(tensors[i].name, SafetensorsCheckpoint::Entry{file_index, i});
      if (!inserted) {
        throw InputError(file.source(), "tensor \"" + bounded_excerpt(tensors[i].name) + "\" is also in " +
                                            out.files[it->second.file].source());
      }
    }
    out.files.push_back(std::move(file));
  };
  if (fs::exists(index_path, ec)) {
    const std::string index_source = index_path.string();
    const SafetensorsIndex index =
        parse_safetensors_index(read_input_file(index_source, field, kMaxJsonFileBytes), index_source);
    std::map<std::string, size_t> file_of_shard;
    for (const std::string& shard : index.shards) {
      file_of_shard[shard] = out.files.size();
      add_file(SafetensorsFile::read((fs::path(dir) / shard).string(), index_source));
    }
    for (const auto& [name, shard] : index.weight_map) {
      const auto it = out.tensors.find(name);
      if (it == out.tensors.end() || it->second.file != file_of_shard.at(shard)) {
        throw InputError(index_source, "weight_map: \"" + bounded_excerpt(name) + "\" is not in its shard " + shard);
      }
    }
    return out;
  }
  if (fs::exists(single_path, ec)) {
    add_file(SafetensorsFile::read(single_path.string(), field));
    return out;
  }
  throw InputError(field, "'" + bounded_excerpt(dir, 4096) + "' holds neither model.safetensors nor model.safetensors.index.json",
                   "point at a Hugging Face snapshot folder (config.json + model.safetensors)");
}

}  // namespace oomkit
