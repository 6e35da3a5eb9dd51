// A writer of Python pickles, protocol 2, for the subset of values oomkit writes: dict (string
// keys), list, str, int (any 64-bit value, signed or unsigned), float, bool and None. Used for
// memory_viz snapshots (core/memory_snapshot.h), the format torch.cuda.memory._dump_snapshot
// writes and https://pytorch.org/memory_viz reads. Debian ships no C++ pickle library.
//
// Opcodes (Python's Lib/pickletools.py documents each; every one is also handled by the
// JavaScript unpickler of PyTorch's torch/utils/viz/MemoryViz.js, which reads only a subset):
//   PROTO 2 (0x80 0x02) ... STOP '.'
//   EMPTY_DICT '}' / EMPTY_LIST ']', then items in batches of 1000 between MARK '(' and
//     SETITEMS 'u' / APPENDS 'e' (Python's own batch size, pickle._BATCHSIZE)
//   str: BINUNICODE 'X' + uint32 LE length + UTF-8 bytes, memoized with BINPUT 'q' /
//     LONG_BINPUT 'r'; a repeated string is BINGET 'h' / LONG_BINGET 'j' of its memo index
//   int: BININT1 'K' (0..255), BININT2 'M' (256..65535), BININT 'J' (int32, LE), else
//     LONG1 0x8a + n + n bytes of little-endian two's complement, the fewest that hold it
//   float: BINFLOAT 'G' + IEEE 754 double, big-endian
//   bool: NEWTRUE 0x88 / NEWFALSE 0x89; None: 'N'
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace oomkit {

/// Streams one pickled value. Containers are opened and closed explicitly; inside a dict each
/// value is preceded by key(). Misuse (a value where a key is due, end_list() closing a dict,
/// finish() with a container open or no value) throws std::logic_error. Strings that are not
/// valid UTF-8 have each invalid byte replaced by U+FFFD (Python would refuse to load them).
class PickleWriter {
 public:
  PickleWriter();

  void begin_dict();
  void end_dict();
  void begin_list();
  void end_list();
  /// The key of the next value in the open dict.
  void key(std::string_view k);

  void string(std::string_view s);
  void integer(int64_t v);
  void unsigned_integer(uint64_t v);
  void real(double v);
  void boolean(bool v);
  void none();

  /// Appends STOP and returns the pickle; the writer is spent afterwards.
  std::string finish();

 private:
  struct Open {
    bool dict = false;
    bool mark_open = false;    // a MARK is written and its batch not yet closed
    int batch = 0;             // items in the current batch
    bool key_pending = false;  // dict: key() written, its value not yet
  };
  void before_value();
  void after_value();
  void write_uint32(uint32_t v);
  void write_memo_put(uint32_t index);

  std::string out_;
  std::vector<Open> open_;
  std::unordered_map<std::string, uint32_t> memo_;
  bool have_value_ = false;
  bool finished_ = false;
};

/// Pickles a JSON value (object -> dict, array -> list, string, integer, float, bool, null ->
/// None). Throws std::invalid_argument for a binary value.
std::string pickle_dumps(const nlohmann::json& value);

}  // namespace oomkit
