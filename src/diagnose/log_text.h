// Text scanning for the OOM parser and the evidence reader: ANSI codes, line ends, log
// prefixes, case-insensitive search and printed sizes. Hand-rolled (no std::regex): every
// function here is linear in its input. Private to src/diagnose/.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oomkit::diagnose_detail {

/// One physical line of a log: a view into the caller's text (valid while it lives).
struct LineView {
  std::string_view raw;  // without its line end
  int64_t number = 0;    // 1-based, counting '\n'
};

/// Calls `f(LineView)` for each line of `text`, in order: split on LF, CRLF and lone CR (progress
/// bars: same line number). Views into `text`. One memchr scan for line ends and one per line for a
/// CR, no vector: the evidence reader's single pass over a 100 MB log.
template <class F>
void for_each_line_view(std::string_view text, F&& f) {
  const char* const base = text.data();
  const size_t n = text.size();
  int64_t number = 1;
  size_t start = 0;
  while (start < n) {
    const void* q = std::memchr(base + start, '\n', n - start);
    const size_t nl = q ? static_cast<size_t>(static_cast<const char*>(q) - base) : n;
    size_t seg = start;
    // A CR before the line's last character ends a progress bar's frame: a line of its own, the
    // same number. The CR of a CRLF (or the text's last character) only ends the line.
    while (const void* r = std::memchr(base + seg, '\r', nl - seg)) {
      const size_t p = static_cast<size_t>(static_cast<const char*>(r) - base);
      if (p + 1 >= nl) break;
      f(LineView{text.substr(seg, p - seg), number});
      seg = p + 1;
    }
    size_t end = nl;
    if (end > seg && base[end - 1] == '\r') --end;
    f(LineView{text.substr(seg, end - seg), number});
    ++number;
    if (!q) break;
    start = nl + 1;
  }
}

/// Splits on LF, CRLF and lone CR (progress bars: same line number). Views into `text`.
std::vector<LineView> split_line_views(std::string_view text);

/// Removes ANSI escape sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL"), colour codes
/// whose ESC was lost on the way ("[31m"), and NUL bytes; tabs become spaces.
std::string strip_ansi(std::string_view s);
inline char lower_char(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

// A byte's class for the character-pair filters (CharPairs in context.cpp, find_heads() in
// oom_parser.cpp), one of 64: every letter (either case), digit and common punctuation mark its own,
// the other bytes spread over the classes left. A pair of classes is one of 4096 bits; a phrase whose
// adjacent pair's bit is unset is not in the line. (Each byte's low six bits, the filters' earlier
// hash, made a log's digits stand for the letters p..y: "34" for "st".)
inline constexpr std::array<uint8_t, 256> kPairClass = [] {
  std::array<uint8_t, 256> c{};
  constexpr std::string_view kOwn = " .,:;()[]_-/'\"=";  // 15 classes, then a-z and 0-9: 51 in all
  constexpr size_t kOwnClasses = kOwn.size() + 26 + 10;
  for (size_t i = 0; i < 256; ++i) c[i] = static_cast<uint8_t>(kOwnClasses + i % (64 - kOwnClasses));  // the rest: 13
  for (size_t i = 0; i < kOwn.size(); ++i) c[static_cast<unsigned char>(kOwn[i])] = static_cast<uint8_t>(i);
  for (int ch = 'a'; ch <= 'z'; ++ch) {
    c[static_cast<size_t>(ch)] = static_cast<uint8_t>(kOwn.size() + static_cast<size_t>(ch - 'a'));
    c[static_cast<size_t>(ch - 'a' + 'A')] = c[static_cast<size_t>(ch)];
  }
  for (int ch = '0'; ch <= '9'; ++ch) c[static_cast<size_t>(ch)] = static_cast<uint8_t>(kOwn.size() + 26 + static_cast<size_t>(ch - '0'));
  return c;
}();

// The bit of the pair (a, b) in a 4096-bit set (kPairClass).
inline constexpr size_t pair_bit(char a, char b) {
  return (static_cast<size_t>(kPairClass[static_cast<unsigned char>(a)]) << 6) | kPairClass[static_cast<unsigned char>(b)];
}
std::string lower(std::string_view s);

/// The word "cpu" on the lower-cased line `lo` names the host's memory or a CPU run ("got CPU OOM",
/// "CPU memory"), not the processor's model in a hardware listing ("CPU: i9-13900K", "CPU AMD Ryzen 9")
/// nor where a fix moves things ("by loading to CPU first", "offload onto the CPU").
bool cpu_memory_word(std::string_view lo);
/// `w` occurs in `s` as a whole word: no letter, digit or '_' on either side. Case-sensitive
/// (callers pass lower-cased text and words).
bool contains_word(std::string_view s, std::string_view w);
/// A word starts at `p` of `s`: no letter, digit or '_' before it.
bool word_starts_at(std::string_view s, size_t p);
/// The `n` characters at `p` of `lo` form a whole word (as contains_word()).
bool is_word_at(std::string_view lo, size_t p, size_t n);
/// `w` occurs in `s` where a word starts ("works" in "it works", not in "frameworks"); a `w` that
/// opens with punctuation (".item()") anywhere. Case-sensitive, as contains_word().
bool contains_word_start(std::string_view s, std::string_view w);

/// "fine" told as a word of the run's state in lower-cased `s` ("runs fine", "it is fine now"),
/// not the first half of a compound: "fine-tuning", "fine tune", "fine-grained", "fine grained".
bool fine_told(std::string_view s);
/// Any of `ps` occurs in `s` as a substring. Case-sensitive.
bool contains_any(std::string_view s, std::initializer_list<std::string_view> ps);
/// ... and over a fixed list (a `static constexpr std::string_view kList[]`).
template <size_t N>
bool contains_any(std::string_view s, const std::string_view (&ps)[N]) {
  for (std::string_view p : ps) {
    if (s.find(p) != std::string_view::npos) return true;
  }
  return false;
}
/// Whether `x` is one of `set` (exactly, case as given).
bool in_list(std::string_view x, std::initializer_list<std::string_view> set);
/// Chinese words of the memory or its blowing up (显存 the GPU's memory, 内存 memory, 爆 blew up), as
/// UTF-8 bytes: a line naming one is about memory.
inline constexpr std::string_view kZhMemoryWords[] = {"\xe6\x98\xbe\xe5\xad\x98", "\xe5\x86\x85\xe5\xad\x98",
                                                      "\xe7\x88\x86"};
/// A logger's prefix opens the line, after spaces and quote marks ('>', '|'): a timestamp
/// (2024-05-01 or 2024/05/01 with a time), glog's tag, a level ("WARNING", "Warning:"), "rank 3:",
/// "12: ", NCCL's "host:pid:tid", or a tag in brackets or parentheses with a time, a rank, a pid
/// or a level inside ("[2024-05-01 10:00:00]", "[rank0]:", "[INFO]", "(pid=12)"); not a title's
/// "[Bug]:" or "[Bugfix]", nor a sentence in parentheses.
bool has_log_prefix(std::string_view s);
/// A line a framework prints under its OOM message as advice (PaddlePaddle's "Please check whether
/// there is any other process using GPU 0", "If yes, please stop them, or start PaddlePaddle on
/// another GPU", "please decrease the batch size of your model", its FLAGS_ settings): the
/// message's words, not the user's. `lower_line` is the line ASCII-lowercased.
bool printed_advice(std::string_view lower_line);
/// The phrases printed_advice() looks for.
inline constexpr std::string_view kPrintedAdvice[] = {
    "please check whether there is any other process", "start paddlepaddle on another gpu",
    "please decrease the batch size of your model",    "flags_fraction_of_gpu_memory_to_use",
    "flags_gpu_memory_limit_mb",                       "flags_use_cuda_managed_memory",
    // ComfyUI's tips under an OOM (execution.py): "This error means you ran out of memory on your
    // GPU. TIPS: If the workflow worked before you might have accidentally set the batch_size to a
    // large number."
    "this error means you ran out of memory on your gpu", "you might have accidentally set the batch_size",
    // TensorFlow's BFC allocator under every OOM it reports (bfc_allocator.cc): "If the cause is
    // memory fragmentation maybe the environment variable 'TF_GPU_ALLOCATOR=cuda_malloc_async' will
    // improve the situation."
    "if the cause is memory fragmentation maybe the environment variable",
    "cuda_malloc_async' will improve the situation"};  // the same hint wrapped onto a second line
/// printed_advice() of a line, with `contains(phrase)` the caller's substring test of that line
/// (a faster one than a search).
template <typename Contains>
bool printed_advice_by(Contains&& contains) {
  for (std::string_view phrase : kPrintedAdvice) {
    if (contains(phrase)) return true;
  }
  return false;
}
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
/// `s` with every whitespace character removed.
std::string squash(std::string_view s);
std::string trim(std::string_view s);
std::string_view trim_view(std::string_view s);
/// The first `n` bytes of `s` or fewer, not ending inside a UTF-8 character.
std::string_view utf8_prefix(std::string_view s, size_t n);
/// Case-insensitive find of an ASCII, lower-case `needle` in `hay`, from `from`; npos if absent.
size_t ifind(std::string_view hay, std::string_view needle, size_t from = 0);
bool icontains(std::string_view hay, std::string_view needle);
bool istarts_with(std::string_view hay, std::string_view prefix);
/// Removes the log prefixes loggers put before each line: timestamps, "[rank0]:", "(pid=12)",
/// levels, glog's "E1123 10:00:00.123 42 file.cc:12]", NCCL's "host:pid:tid [0]", pytest's "E   ".
std::string strip_log_prefix(std::string_view s);
/// The length of a launcher's per-process prefix at the start of `s` and the spaces after it:
/// torchrun's "[rank3]: " / "[default0]:", "rank 3:", mpirun's "[1,0]<stderr>:", Ray's "(pid=12)"
/// (up to four in a row, as they nest); 0 when `s` starts with none. `process`, when given, is set
/// to the process the prefix names (the rank; 1000000 + the pid for Ray's), left as is when none
/// does. `s` as printed or lowercased.
size_t launcher_prefix(std::string_view s, int64_t* process = nullptr);
/// GPU memory uneven across devices, in the user's words, on the line `raw` (`lo`: it
/// ASCII-lowercased): "GPUs memory imbalance", "the memory usage of GPU0 is significantly higher
/// than other GPUs"; not a program's line, a fix, nor another thing uneven (see log_text.cpp).
bool gpu_memory_imbalance_prose(std::string_view raw, std::string_view lo);
/// Whether `text` (lowercased) names a size: a digit run, an optional space, then "g" (not
/// followed by a letter), "gb" or "gib" ("14GB", "24 GiB", "24G"); with `megabytes` also "mb" or
/// "mib" ("50 MB"; not "3m", which is a count).
bool size_named(std::string_view text, bool megabytes);
/// Chinese verbs of memory used up: 用完 / 耗完 / 用光 / 吃光 (used or eaten up), 耗尽 (exhausted),
/// 占满 (filled). One list for the parser's words of memory trouble, the context's and the denial
/// (没有 / 没 / 未 before one) below.
inline constexpr std::string_view kZhUsedUp[] = {"\xe7\x94\xa8\xe5\xae\x8c", "\xe8\x80\x97\xe5\xae\x8c", "\xe7\x94\xa8\xe5\x85\x89",
                                                 "\xe5\x90\x83\xe5\x85\x89", "\xe8\x80\x97\xe5\xb0\xbd", "\xe5\x8d\xa0\xe6\xbb\xa1"};
/// Whether Chinese `text` asks (？, ?, 吗, 是否, 够不够), supposes (如果, 的话 / 的話, unless what follows the
/// last 的话 tells the memory exceeded, unhedged: "...的话会超显存"), denies a blow-up, an excess or an
/// overflow (不会爆, 没有爆, 没爆, 不爆, 没撑爆, 不会撑爆, 没爆掉, 不会超, 没有超, 没超, 不超显存, 不超内存, 没有溢出,
/// 未溢出) or memory used up (没有 / 没 / 未 before one of
/// kZhUsedUp) or tells of a fix (修复): then a word of memory trouble beside it reports none.
bool zh_asked_supposed_or_denied(std::string_view text);
/// Whether the Chinese clause `c` asks only why (为什么 / 为何), denying nothing (没, 不是, 不会, 未, 不 other
/// than in 不断 / 不停, "continually", and 不够 / 不足, "not enough") and asking or supposing nothing else
/// (是否, 吗, 够不够, 如果, 假如, 的话): "都会慢慢增加这是为什么？" (why does it keep rising?) tells the rise, as English "why
/// does the memory keep increasing?" does, and "为什么24G的显存还不够用？" (why are 24G not enough?) the
/// shortage; "为什么显存没有增加？" (why did it not rise?) tells none.
bool zh_asked_why_only(std::string_view c);
/// Whether a setting the user changes stands beside the rise word lo[begin, end): after it (past
/// spaces, 了, 到, 一下) or in the 12 bytes before it, so the rise is the user's raising of that setting
/// or the memory following it, not growth: "我逐步增加了batch size" (I raised the batch size step by
/// step), "我把batch size逐步增加到64"; batch, bs, seq, lr, max_, size, zh 序列 (sequence), 批 (batch),
/// 长度 (length), 尺寸 (size), 分辨率 (resolution), 图片 (images), 输入 (input), 样本 (samples), 学习率 (learning
/// rate).
bool zh_setting_near(std::string_view lo, size_t begin, size_t end);
/// Chinese words of a rise told going on: 一直, 不断, 持续, 逐渐, 慢慢, 逐步, 每次 (all along, continually,
/// steadily, gradually, slowly, step by step, each time). One list for zh_rise_asked_why() and the
/// context's growth reading (which adds 随着, "as ... goes on").
inline constexpr std::string_view kZhOngoing[] = {
    "\xe4\xb8\x80\xe7\x9b\xb4", "\xe4\xb8\x8d\xe6\x96\xad", "\xe6\x8c\x81\xe7\xbb\xad", "\xe9\x80\x90\xe6\xb8\x90",
    "\xe6\x85\xa2\xe6\x85\xa2", "\xe9\x80\x90\xe6\xad\xa5", "\xe6\xaf\x8f\xe6\xac\xa1"};
/// Chinese words of a rise: 增加, 上涨, 涨, 上升, 增长 (increases, rises, grows).
inline constexpr std::string_view kZhRise[] = {"\xe5\xa2\x9e\xe5\x8a\xa0", "\xe4\xb8\x8a\xe6\xb6\xa8", "\xe6\xb6\xa8",
                                               "\xe4\xb8\x8a\xe5\x8d\x87", "\xe5\xa2\x9e\xe9\x95\xbf"};
/// Whether the Chinese clause `c` asks only why (zh_asked_why_only()) of a rise told going on, no
/// other measure named (loss, 耗时 / 时间, 速度, 精度 / 准确率, 损失): a rise
/// word (增加, 上涨, 涨, 上升, 增长) with 一直 / 不断 / 持续 / 逐渐 / 慢慢 / 逐步 / 每次 (all along, continually,
/// steadily, gradually, slowly, step by step, each time) in `c`, no setting beside the rise
/// (zh_setting_near()): "都会慢慢增加这是为什么？" tells growth seen; "为什么随着batch size增加显存也增加？"
/// (memory following a setting) and "为什么换成fp32后显存涨了很多？" (one rise) tell none.
bool zh_rise_asked_why(std::string_view c);
/// Whether the Chinese clause `c` asks only why (zh_asked_why_only()) of the memory's own shortage: 不够 /
/// 不足 within the four characters after 显存 / 内存 ("为什么24G的显存还不够用？", why are 24G not enough?),
/// no fix (修复) named. "为什么显存就占满了？" asks of a fill that may be a preallocation and tells none;
/// "显存占用很低但GPU利用率不足" names another thing short.
bool zh_shortage_asked_why(std::string_view c);
/// A count written in prose on `lo` (lowercase): a digit run that starts a word (not after a letter, a
/// digit, '_', '.' or ','), with its decimal point and thousands commas ("1216", "1.8", "1,200");
/// `value` its value, `begin` and `end` where it starts and ends (the unit or word after it is the
/// caller's to read).
struct ProseCount {
  double value = 0;
  size_t begin = 0;
  size_t end = 0;
};
/// Every count in `lo`, in order (see ProseCount).
std::vector<ProseCount> prose_counts(std::string_view lo);
/// Whether the count `c` of `lo` (prose_counts(lo)) stands right after the word "after", fillers
/// between aside: "after 5 iterations", "only after 20 steps", "after the first 10 iterations",
/// "after about 3000 steps", "after more than 2 epochs" (fillers "the first", "only", "just", "about",
/// "around", "over", "more than", "~", "roughly", "approximately", "nearly", "almost"). The unit
/// after the count is the caller's to read.
bool count_told_after(std::string_view lo, const ProseCount& c);
/// One GPU told unable to hold a model of a size in billions of parameters, in the clause that names
/// both (`lo` lowercased): "a single GPU cannot load the 70B model", "can't load a 13b model on one
/// card", zh "单卡无法加载70b模型" (one card cannot load the 70b model; 单卡 / 单张卡 / 一张卡, 无法加载 /
/// 加载不了 / 放不下 / 装不下). Not asked ("can a single GPU load ...?", 吗), supposed ("if"), nor a
/// size of another unit ("70b tokens"). The weights alone do not fit one device (static memory).
bool single_gpu_cannot_hold_model(std::string_view lo);
/// How many times `lo` names 内存 (the host's memory, in Chinese) outside 内存溢出 ("memory overflow", the
/// generic Chinese name of an out-of-memory error, Java's OutOfMemoryError translated, of no device).
size_t zh_host_memory_named(std::string_view lo);
/// The first GPU's names in words (lowercased): only_first_gpu_used() and the Reader's
/// first_gpu_alone() read them.
inline constexpr std::string_view kFirstGpuNames[] = {"first gpu", "1st gpu", "0th gpu", "gpu 0", "gpu0",
                                                      "cuda:0",    "device 0", "first card", "card 0"};
/// Memory told as full, in `lo` (ASCII-lowercased): "is full", "gets (completely) full", "becomes
/// full", ... as a phrase of its own, with the memory, RAM, VRAM, the GPU or "it" in the 30
/// characters before ("I have 24 GB of RAM and it gets completely full", "VRAM becomes full"); not
/// denied ("never gets full", "is not full"), not a disk, a queue or /tmp, not "is fully", "is
/// full of ...", nor a full something ("full precision", "full speed", "full bf16 training"): the
/// phrase ends at punctuation, the line's end or a joining word ("and", "now", "after", ...).
bool memory_full_told(std::string_view lo);
/// The machine as a whole running out of memory or stalling, said of it, in `lo` (ASCII-lowercased):
/// a machine noun (system, machine, computer, laptop, pc, desktop, workstation; not "system
/// prompt", "machine learning") as a word, then within 40 characters "ran / runs / run out of",
/// "is out of memory", "unresponsive", "froze" (not "frozen"), "freezes", "hangs", "halted" / "halts"
/// (ending its clause), without "not", "n't", "never", "no longer" or "without" between ("the system
/// ran out of memory", "Your system has run out of application memory", "the system is becoming
/// extremely unresponsive"): host RAM, as a device's memory is never said to be the system's. A server
/// is not counted (an inference server's memory is its GPU's).
bool machine_runs_out(std::string_view lo);
/// A batch of one named in `lo` (ASCII-lowercased): a name holding "batch" ("batch", "batch_size",
/// "batchsize", "\"batch_size_per_gpu\""), then what joins it to the number ("=", ":", a quote, "size",
/// "of", "to", "is", "as", "just", "only"; not a space alone: "batch 1" is the first batch), then 1 as a
/// number of its own ("batch=1", "batch size of 1", "batch_size: 1", "\"batch_size_per_gpu\" to 1"; not
/// "batch=16", "batch=1.5", "batch=1x3", a progress count "batch: 1/1563"). Not a count's, an index's or
/// another phase's name ("num_batches", "batch_idx=1", "eval_batch_size_per_gpu=1").
bool batch_one_named(std::string_view lo);
/// An accelerator named in `t` (lowercase): CUDA, a GPU, VRAM, zh 显存 (GPU memory), the Ascend NPU,
/// a TPU, XPU, HBM, MPS, "device memory", an accelerator. Used to tell a device's OOM from the
/// host's when a kill or an OOM is told near it.
bool accelerator_named(std::string_view t);
/// A number in prose at `lo[p]` (lowercase) and the memory unit after it, after at most one space
/// ("8gb", "11 g", "512 mib", "1 tb", "207.42 GiB"): decimal and binary units both read as powers of
/// 2^10, as people write "8GB" for an 8 GiB card; `unit_bytes` is 0 when no memory unit follows.
/// `chars` is the number's length (digits and dots), `end` where the word after it ends. Nothing when
/// no number starts at `p` (digits glued to a word, "rtx3090", "v1.5", are none).
struct ProseNumber {
  double value = 0;
  int64_t unit_bytes = 0;
  size_t chars = 0;
  size_t end = 0;
};
std::optional<ProseNumber> prose_number_at(std::string_view lo, size_t p);
/// The GPU's memory named in `lo` (lowercase: "GPU RAM", "VRAM", "GPUs' RAM", "graphics", zh 显存),
/// or a CUDA message: then "RAM" there is not the host's.
bool gpu_memory_named(std::string_view lo);
/// A GPU model's name as people write it in a log, lower case: the one list that words()' GPU
/// word, the named GPU's capacity, gpu_named() and the larger-than-80-GiB reading all use.
struct GpuModelName {
  std::string_view word;     // a whole word ("a100", "mi300x") or a card's number ("3090")
  std::string_view catalog;  // gpus.h's entry when the name has one memory size ("h100-pcie", the H100's
                             // smallest); empty when it comes in several (A100 40/80 GB, V100 16/32 GB)
                             // or is not catalogued
  bool needs_gpu_word;       // a short name or a card's number ("T4", "3090"): its catalogue capacity
                             // is read only beside a GPU word ("GPU", "card", "RTX", ...)
  bool more_than_80_gib;     // more memory than an 80 GB A100 / H100 (H200, B200, MI250, MI300, ...)
};
/// Every GPU model name oomkit reads in prose, NVIDIA data-centre, consumer (by card number), AMD.
const std::vector<GpuModelName>& gpu_model_names();
/// A card's number ("3090") where a word starts in `lo` and not a video resolution ("1080p"), a
/// decimal's or a count's digits ("2.3090", "1,3090") nor part of a longer number ("40607"): at `p`,
/// of length `n`.
bool card_number_at(std::string_view lo, size_t p, size_t n);
/// A GPU named in `lo` (lowercase) by that word or a model's (gpu_model_names(): "RTX 3090",
/// "A100", "T4", "MI300X"), a card's line (Quadro, GeForce; "TITAN X", "Titan RTX"), CUDA, a TPU, or zh
/// 显存 / 显卡 (the GPU's memory / card); not a video resolution ("1080p").
bool gpu_named(std::string_view lo);
/// zh 卡 (a card), as UTF-8.
inline constexpr std::string_view kZhCard = "\xe5\x8d\xa1";
/// The count of cards told before the 卡 at `p` of `lo` (lowercase): its digits, directly or through a
/// space or the measure word 张 / 块 ("8卡", "8 卡", "4张卡"), or 两 / 四 / 八 (2, 4, 8: "四卡训练"); 0 where
/// there is none, the digits end a longer token ("a100卡", "1.5卡"), or 卡 means "stuck" (卡住 / 卡死 / 卡顿 /
/// 卡在 / 卡了 / 卡着 / 卡主: "训练到epoch 3卡了一下").
int64_t zh_cards_counted_at(std::string_view lo, size_t p);
/// The number of at most four digits that ends at `e` of `lo` ("4" in "4张3090"), 0 where none ends there
/// or it ends a longer token ("a100", "1.5").
int64_t small_count_before(std::string_view lo, size_t e);
/// A container's or a cluster node's memory named in `lo` (lowercase): a pod, a container, a cgroup,
/// Kubernetes, Docker, an ECS task (Korean 컨테이너, 도커), a Spark driver's or executor's memory:
/// cgroup limits over host RAM.
bool container_memory_named(std::string_view lo);
/// A machine's memory beyond any accelerator's named in `lo` (lowercase): a size of 256 GiB or more
/// ("1.5TB", "512 GB") beside a machine's noun (node, server, machine, box, instance, cluster, RAM,
/// memory) within 20 characters after it or before it ("our cluster's 1.5TB nodes", "a server with
/// 768 GB of RAM"): no GPU has that much (the largest hold 192 GiB), so it is host RAM. Not on a
/// line naming an accelerator (a GPU's model, HBM, VRAM, DGX: a sum of devices' memory), a disk or
/// a dataset, nor a size told as a total.
bool host_sized_memory_named(std::string_view lo);
/// A CUDA GPU's memory named in `t` (lowercase): "cuda", "gpu", "vram", "video memory" / "video ram" /
/// "graphics memory", zh 显存 (GPU memory) / 显卡内存 (the graphics card's memory).
bool cuda_memory_named(std::string_view t);
/// Whether the words right after a GPU told absent, at byte `e` of `lo` (lowercase) after "no GPU" or
/// "without GPU", name the GPU's memory, use or a feature instead ("no GPU memory left", "no GPU
/// usage", "no GPU processes were", "without GPU offload", "without CUDA graphs"): a GPU is there.
bool gpu_denial_names_other(std::string_view lo, size_t e);
/// `lo` (lowercase) with the GPU told absent blanked out: "without GPU", "without a / any / the GPU",
/// "without CUDA", "no GPU" (not where gpu_denial_names_other()) left as spaces, so that
/// cuda_memory_named() on the rest reads only a GPU told present ("Training - Out of Memory Error
/// without GPU" names no GPU that ran out).
std::string gpu_denials_blanked(std::string_view lo);
/// Whether lowercased `lo` names a GPU's own RAM ("12G video ram", "GPU RAM", "graphics RAM", "VRAM"),
/// not the host's.
bool gpu_ram_named(std::string_view lo);
/// Whether lowercased `lo` names the GPU's RAM with "of" / "on" ("the available RAM of GPU", "the RAM
/// on the GPU"), as whole words and not a GPU machine's RAM ("the RAM on the GPU server").
bool gpu_ram_of_gpu_named(std::string_view lo);
/// accelerator_named() within 40 characters before or after `lo[at, at + len)`: the accelerator
/// said of what is told there ("killed due to out of memory on the GPU").
bool accelerator_near(std::string_view lo, size_t at, size_t len);
/// The first GPU alone used, in words, in `lo` (ASCII-lowercased): "only" as a word before the
/// first GPU's name ("first gpu", "gpu 0", "cuda:0", "device 0", ...) or right after it ("gpu 0
/// only"), not followed by a number, and a verb of use or filling ("the memory can only used in the
/// first gpu", "only GPU 0 is used", "only the memory of the first GPU increases"); "I only have 8
/// GB on GPU 0" names no use, "GPU 0 memory used: only 4.1GB" is a reading, "to use only the first
/// GPU, set CUDA_VISIBLE_DEVICES" advice, "I only have one GPU" / "only GPU 0 is visible" a one-GPU
/// machine; zh 只有 (only) with the first card (0号卡, 第一张卡, 卡0) and its use (占满, 在用), not
/// 只有一张 (only one card). One of the unevenness readings of
/// gpu_memory_imbalance_prose() (which also needs the memory named).
bool only_first_gpu_used(std::string_view lo);

/// A size as printed: "20.00 MiB", "2147483648 bytes", "512.00M" (XLA), "40GB" (TH).
struct PrintedSize {
  size_t begin = 0;        // offsets in the scanned text
  size_t end = 0;
  int64_t bytes = 0;       // rounded; INT64_MAX when `overflow`
  bool overflow = false;   // the value is beyond int64 or negative (a corrupted size, never a real one)
  bool negative = false;   // printed with a minus sign (a size that wrapped past int64)
  std::string printed;     // the number and unit as printed
};

/// Reads "number unit" starting at `pos` of the whitespace-free text `s` (the number must start
/// there). Units: bytes/byte/B, KiB..EiB (2^10k), KB..EB (10^3k; binary when `mps_units`, as
/// MPSAllocator labels them), and bare K/M/G/T/P (binary, XLA's HumanReadableNumBytes) when
/// `bare_suffix`. No exception on any input: a 5,000-digit number is an overflow, and so is a
/// number printed with a minus sign (flagged `negative`).
std::optional<PrintedSize> size_at(std::string_view s, size_t pos, bool mps_units = false, bool bare_suffix = false);
/// The line's clauses (`lo` ASCII-lowercased): split at ". ", "; ", "? ", "! ", " but ", before a hyphen
/// dash (" - ", " -- ") after a letter that ends a clause of three words or more, in a sentence that
/// does not ask (the dash opens the next clause), before a contrast (" whereas ", " although ",
/// " even though ", " though ", ", while ", ", however"), at the first ", " of a
/// clause that opens with a concession ("although ...", "even though ...", "while ..."), after the
/// full-width "，", "。", "；", "？", "！" and after an ASCII ',' beside a non-ASCII byte (the
/// separator's punctuation stays with the clause it ends, so a question keeps its '?' or '？'). The
/// pieces cover `lo` end to end.
std::vector<std::string_view> clauses(std::string_view lo);
/// The line's sentences (`lo` lower case): split after a '.', '?' or '!' followed by a space or the
/// end of the line; the stop stays with the sentence it ends, so a question keeps its '?'. The
/// pieces cover `lo` end to end (a last piece without a stop included).
std::vector<std::string_view> sentences(std::string_view lo);
/// The runs of letters and digits of `t`, in order (views into it): "i'm" gives "i", "m"; "v3-8"
/// gives "v3", "8".
std::vector<std::string_view> alnum_words(std::string_view t);
/// Whether the question that ends `clause` is tacked on after a comma past `p` ("After an hour the
/// OS kills the process, is there a way to avoid it?", "..., how can I fix it?"): what comes
/// before that comma is told, not asked. `clause` is lower case.
bool question_tacked_on(std::string_view clause, size_t p);
/// Whether `clause` tells a problem as there, whatever mark ends it: "there" opening the clause or
/// its part after the last comma before it (only "and", "but", "so", "then", "however", "also" before it), a form of "be" ("is", "was", "'s", "has been", "have been",
/// "had been", "'s been"; "always", "still", "also" beside it), an optional article, then
/// "problem", "issue", "error" or "bug" ("there has always been the problem of the process being
/// killed ... ?"); not asked with "there" after the verb ("is there a problem ...?") nor inside a
/// question ("does it get killed when there is an error?"). `clause` is lower case.
bool problem_told_there(std::string_view clause);
/// Whether what `lo` tells at `p` is asked whether: its clause (clause_at()) ends with '?', no
/// question is tacked on after `p` (question_tacked_on()), and the clause is no problem told as
/// there with a question mark after it (problem_told_there(), as a writer for whom '?' closes a
/// plea for help may write). `lo` is lower case.
bool asked_at(std::string_view lo, size_t p);

/// Whether the "kill" word at `p` of the lowercased line `lo` ends something other than the run: an
/// object of the program destroyed ("after the object is killed"; not a cloud "instance", a machine),
/// or the bound of a holding, "this gpu space is not freed until the process is killed" (memory kept
/// for the process's life: "until" and a word of not freeing or staying allocated before it in the
/// clause). Not "memory kept growing until the process was killed": growing is no holding.
bool kill_not_the_failure(std::string_view lo, size_t p);
/// A leak named only as a guess in its clause ("I was thinking that it might be a memory leak",
/// "I suspect a memory leak", "probably a leak"): no growth told. `lo` is lower case.
bool leak_guessed(std::string_view lo);
/// An image file named by its format as a word ("a BMP(3968*2976)", "the .png"): bmp, png, jpg,
/// jpeg, tiff. `lo` is lower case.
bool image_format_named(std::string_view lo);
/// The clause of clauses(lo) holding lo[pos]; empty when `pos` is past the end.
std::string_view clause_at(std::string_view lo, size_t pos);
/// Whether the failure's name at `at` of the lower-cased line `lo` is told absent or not found:
/// denied just before it, the denial starting a word with at most a device's or the memory's name
/// between ("no CUDA_OUT_OF_MEMORY error is raised", "This was not a CUDA OOM", "It's not OOM", "This
/// isn't an out of memory problem", "I didn't see any OOM", "there is still no OOM after three days"),
/// or searched for and not found after it ("I grep'd the log for CUDA_OUT_OF_MEMORY and found
/// nothing"). Not a denial of another word ("Without LoRA OOM right away", "Jetson Nano out of
/// memory", "Grounding DINO OOM"), nor the work told failing for it ("I can't train it without OOM",
/// "difficult to train without OOM", "how to run it on a T4 without CUDA out of memory"), nor the failure told coming later ("no OOM until epoch 3", "no
/// OOM at first, but then ...").
bool name_told_absent(std::string_view lo, size_t at);
/// Where a kill or the system's OOM is told in Chinese on the lower-cased line `lo`: "自动kill程序了"
/// (the program was killed by itself), "被kill" / "kill掉" / "被杀" / "杀掉" / "杀死" (killed), or the
/// system's own OOM ("系统会OOM", "系统OOM"); not denied just before (没 / 不: "没有被kill"), not the
/// user's own kill (我kill, 手动kill: by hand, 把进程kill掉 / 将任务杀掉: kill the process), not on a line naming the GPU's memory (显存). npos if none.
size_t zh_kill_at(std::string_view lo);
/// A kill told in Chinese (zh_kill_at()) on the lower-cased line `lo`, not on a line telling the
/// memory growing or leaking (增长, 增加, 泄漏, 泄露: the kill ends that growth, which its own reading weighs).
bool zh_kill_told(std::string_view lo);
/// HotSpot's native allocation (commit) failure in `message` ("os::commit_memory(...) failed",
/// "Native memory allocation (malloc) failed to allocate N bytes"), not a java.lang.OutOfMemoryError
/// of its heap. Case-insensitive.
bool hotspot_native_failure(std::string_view message);
/// Whether a size as printed is negative: a minus sign, ASCII or the typeset U+2212, before it.
bool printed_negative(std::string_view printed);
/// Memory held per process (one unit throughout: bytes, or MiB as nvidia-smi prints it), read for one
/// CUDA context apiece: the largest group of holdings of at most `small_max`, each within 10% of the
/// group's smallest (`count`, that smallest `lo`, its largest `hi`; ties to the first), and how many
/// holdings exceed `small_max` (`large`). Only the first 64 small holdings are grouped (the grouping is
/// quadratic).
struct EqualHoldings {
  size_t count = 0;
  int64_t lo = 0;
  int64_t hi = 0;
  size_t large = 0;
};
EqualHoldings equal_small_holdings(const std::vector<int64_t>& held, int64_t small_max);
/// A size as a message printed it, with a space before its unit as every other size oomkit shows
/// ("17179869184.00GiB" -> "17179869184.00 GiB", "-8589934592bytes" -> "-8589934592 bytes").
std::string spaced_unit(std::string_view printed);
/// The size right after the first (case-insensitive, lower-case) `label` in `s`.
std::optional<PrintedSize> size_after(std::string_view s, std::string_view label, bool mps_units = false,
                                      bool bare_suffix = false);
/// The size that ends right before the first `label` in `s` ("10.76GiBtotalcapacity").
std::optional<PrintedSize> size_before(std::string_view s, std::string_view label, bool mps_units = false);
/// The unsigned integer (<= 18 digits) starting at `pos`; nullopt otherwise.
std::optional<int64_t> integer_at(std::string_view s, size_t pos, size_t* end = nullptr);
/// The integer right after `label` (skipping spaces, '=', ':', '(').
std::optional<int64_t> integer_after(std::string_view s, std::string_view label);

}  // namespace oomkit::diagnose_detail
