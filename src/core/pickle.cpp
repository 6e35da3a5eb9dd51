// The protocol-2 pickle writer (see include/oomkit/core/pickle.h for the opcodes).
#include "oomkit/core/pickle.h"

#include <cstring>
#include <stdexcept>

namespace oomkit {

namespace {

constexpr int kBatch = 1000;  // items per MARK ... SETITEMS/APPENDS, as pickle._BATCHSIZE

// Length of the valid UTF-8 sequence starting at s[i] (1..4), or 0 when it is not one
// (stray continuation byte, truncated, overlong, a surrogate or past U+10FFFF).
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  size_t n = 0;
  uint32_t cp = 0;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4;
    cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(s.data() + i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace

PickleWriter::PickleWriter() { out_ = "\x80\x02"; }  // PROTO 2

void PickleWriter::write_uint32(uint32_t v) {
  for (int k = 0; k < 4; ++k) out_.push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
}

void PickleWriter::write_memo_put(uint32_t index) {
  if (index < 256) {
    out_.push_back('q');  // BINPUT
    out_.push_back(static_cast<char>(index));
  } else {
    out_.push_back('r');  // LONG_BINPUT
    write_uint32(index);
  }
}

void PickleWriter::before_value() {
  if (finished_) throw std::logic_error("pickle: value after finish()");
  if (open_.empty()) {
    if (have_value_) throw std::logic_error("pickle: a second top-level value");
    return;
  }
  Open& o = open_.back();
  if (o.dict && !o.key_pending) throw std::logic_error("pickle: a dict value without key()");
  if (!o.dict && !o.mark_open) {
    out_.push_back('(');  // MARK
    o.mark_open = true;
  }
}

void PickleWriter::after_value() {
  if (open_.empty()) {
    have_value_ = true;
    return;
  }
  Open& o = open_.back();
  o.key_pending = false;
  if (++o.batch == kBatch) {
    out_.push_back(o.dict ? 'u' : 'e');  // SETITEMS / APPENDS
    o.batch = 0;
    o.mark_open = false;
  }
}

void PickleWriter::key(std::string_view k) {
  if (open_.empty() || !open_.back().dict) throw std::logic_error("pickle: key() outside a dict");
  Open& o = open_.back();
  if (o.key_pending) throw std::logic_error("pickle: two keys in a row");
  if (!o.mark_open) {
    out_.push_back('(');
    o.mark_open = true;
  }
  o.key_pending = true;
  // The key is written as a string value without counting as an item.
  const std::string text = valid_utf8(k);
  auto it = memo_.find(text);
  if (it != memo_.end()) {
    if (it->second < 256) {
      out_.push_back('h');
      out_.push_back(static_cast<char>(it->second));
    } else {
      out_.push_back('j');
      write_uint32(it->second);
    }
    return;
  }
  out_.push_back('X');
  write_uint32(static_cast<uint32_t>(text.size()));
  out_ += text;
  const auto index = static_cast<uint32_t>(memo_.size());
  memo_.emplace(text, index);
  write_memo_put(index);
}

void PickleWriter::begin_dict() {
  before_value();
  out_.push_back('}');  // EMPTY_DICT
  open_.push_back(Open{/*dict=*/true});
}

void PickleWriter::begin_list() {
  before_value();
  out_.push_back(']');  // EMPTY_LIST
  open_.push_back(Open{/*dict=*/false});
}

void PickleWriter::end_dict() {
  if (open_.empty() || !open_.back().dict) throw std::logic_error("pickle: end_dict() without an open dict");
  if (open_.back().key_pending) throw std::logic_error("pickle: end_dict() after a key without value");
  if (open_.back().mark_open) out_.push_back('u');
  open_.pop_back();
  after_value();
}

void PickleWriter::end_list() {
  if (open_.empty() || open_.back().dict) throw std::logic_error("pickle: end_list() without an open list");
  if (open_.back().mark_open) out_.push_back('e');
  open_.pop_back();
  after_value();
}

void PickleWriter::string(std::string_view s) {
  before_value();
  const std::string text = valid_utf8(s);
  auto it = memo_.find(text);
  if (it != memo_.end()) {
    if (it->second < 256) {
      out_.push_back('h');  // BINGET
      out_.push_back(static_cast<char>(it->second));
    } else {
      out_.push_back('j');  // LONG_BINGET
      write_uint32(it->second);
    }
  } else {
    if (text.size() > UINT32_MAX) throw std::length_error("pickle: string longer than 4 GiB");
    out_.push_back('X');  // BINUNICODE
    write_uint32(static_cast<uint32_t>(text.size()));
    out_ += text;
    const auto index = static_cast<uint32_t>(memo_.size());
    memo_.emplace(text, index);
    write_memo_put(index);
  }
  after_value();
}

void PickleWriter::integer(int64_t v) {
  before_value();
  if (v >= 0 && v < 256) {
    out_.push_back('K');
    out_.push_back(static_cast<char>(v));
  } else if (v >= 256 && v < 65536) {
    out_.push_back('M');
    out_.push_back(static_cast<char>(v & 0xFF));
    out_.push_back(static_cast<char>((v >> 8) & 0xFF));
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    out_.push_back('J');
    write_uint32(static_cast<uint32_t>(static_cast<int32_t>(v)));
  } else {
    // LONG1: little-endian two's complement, trailing bytes dropped while the sign survives.
    unsigned char bytes[8];
    const auto u = static_cast<uint64_t>(v);
    for (int k = 0; k < 8; ++k) bytes[k] = static_cast<unsigned char>((u >> (8 * k)) & 0xFF);
    int n = 8;
    while (n > 1 && ((bytes[n - 1] == 0x00 && (bytes[n - 2] & 0x80) == 0) ||
                     (bytes[n - 1] == 0xFF && (bytes[n - 2] & 0x80) != 0))) {
      --n;
    }
    out_.push_back(static_cast<char>(0x8a));
    out_.push_back(static_cast<char>(n));
    out_.append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(n));
  }
  after_value();
}

void PickleWriter::unsigned_integer(uint64_t v) {
  if (v <= static_cast<uint64_t>(INT64_MAX)) {
    integer(static_cast<int64_t>(v));
    return;
  }
  before_value();
  // Top bit set: 8 magnitude bytes plus a 0x00 sign byte.
  out_.push_back(static_cast<char>(0x8a));
  out_.push_back(9);
  for (int k = 0; k < 8; ++k) out_.push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
  out_.push_back('\0');
  after_value();
}

void PickleWriter::real(double v) {
  before_value();
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(bits));
  out_.push_back('G');  // BINFLOAT, big-endian
  for (int k = 7; k >= 0; --k) out_.push_back(static_cast<char>((bits >> (8 * k)) & 0xFF));
  after_value();
}

void PickleWriter::boolean(bool v) {
  before_value();
  out_.push_back(static_cast<char>(v ? 0x88 : 0x89));  // NEWTRUE / NEWFALSE
  after_value();
}

void PickleWriter::none() {
  before_value();
  out_.push_back('N');
  after_value();
}

std::string PickleWriter::finish() {
  if (finished_) throw std::logic_error("pickle: finish() twice");
  if (!open_.empty()) throw std::logic_error("pickle: finish() with a container open");
  if (!have_value_) throw std::logic_error("pickle: finish() without a value");
  finished_ = true;
  out_.push_back('.');  // STOP
  return std::move(out_);
}

namespace {
void write_json(PickleWriter& w, const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::object:
      w.begin_dict();
      for (const auto& [k, item] : v.items()) {
        w.key(k);
        write_json(w, item);
      }
      w.end_dict();
      break;
    case nlohmann::json::value_t::array:
      w.begin_list();
      for (const auto& item : v) write_json(w, item);
      w.end_list();
      break;
    case nlohmann::json::value_t::string: w.string(v.get_ref<const std::string&>()); break;
    case nlohmann::json::value_t::number_integer: w.integer(v.get<int64_t>()); break;
    case nlohmann::json::value_t::number_unsigned: w.unsigned_integer(v.get<uint64_t>()); break;
    case nlohmann::json::value_t::number_float: w.real(v.get<double>()); break;
    case nlohmann::json::value_t::boolean: w.boolean(v.get<bool>()); break;
    case nlohmann::json::value_t::null: w.none(); break;
    default: throw std::invalid_argument("pickle: a JSON binary or discarded value cannot be pickled");
  }
}
}  // namespace

std::string pickle_dumps(const nlohmann::json& value) {
  PickleWriter w;
  write_json(w, value);
  return w.finish();
}

}  // namespace oomkit
