// The text scanners of src/diagnose/log_text.h that the diagnoser's speed rests on, against
// plain reference implementations on seeded random text.
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "../src/diagnose/log_text.h"
#include "oomkit/estimate/gpus.h"

using namespace oomkit::diagnose_detail;

namespace {

// ASCII-lowercase `s` (what ifind() compares against).
std::string ascii_lower(std::string s) {
  for (char& c : s) c = lower_char(c);
  return s;
}

// The byte-at-a-time splitter for_each_line_view() replaced: LF, CRLF, a lone CR (a progress
// bar's frame, the same number); a CR before LF or at the text's end only ends the line.
std::vector<LineView> reference_lines(std::string_view text) {
  std::vector<LineView> lines;
  int64_t number = 1;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      size_t end = i;
      if (end > start && text[end - 1] == '\r') --end;
      lines.push_back({text.substr(start, end - start), number++});
      start = i + 1;
    } else if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] != '\n') {
      lines.push_back({text.substr(start, i - start), number});
      start = i + 1;
    }
  }
  if (start < text.size()) {
    size_t end = text.size();
    if (text[end - 1] == '\r') --end;
    lines.push_back({text.substr(start, end - start), number});
  }
  return lines;
}

}  // namespace

// for_each_line_view() (memchr for line ends, then for a CR in each line) and split_line_views()
// give the lines, views and numbers of the byte-at-a-time splitter on seeded random text of
// 'a', CR and LF: empty lines, CRCRLF, a CR or LF first or last, no line end at all.
TEST(LogText, LineViewsEqualTheByteAtATimeSplit) {
  std::mt19937 rng(20261204);
  const std::string alphabet = "aa\r\n";
  for (int round = 0; round < 20000; ++round) {
    std::string text(rng() % 24, ' ');
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    const std::vector<LineView> want = reference_lines(text);
    std::vector<LineView> got;
    for_each_line_view(text, [&](const LineView& l) { got.push_back(l); });
    const std::vector<LineView> split = split_line_views(text);
    ASSERT_EQ(got.size(), want.size()) << round;
    ASSERT_EQ(split.size(), want.size()) << round;
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(got[i].raw.data(), want[i].raw.data()) << round << " line " << i;
      ASSERT_EQ(got[i].raw.size(), want[i].raw.size()) << round << " line " << i;
      ASSERT_EQ(got[i].number, want[i].number) << round << " line " << i;
      ASSERT_EQ(split[i].raw.data(), want[i].raw.data()) << round << " line " << i;
      ASSERT_EQ(split[i].raw.size(), want[i].raw.size()) << round << " line " << i;
      ASSERT_EQ(split[i].number, want[i].number) << round << " line " << i;
    }
  }
}

// ifind() (eight bytes at a time for a letter first) finds what a search of the lowercased text
// finds, from every offset: letters of both cases, digits, punctuation and bytes >= 0x80 ('X' | 0x20
// is 'x', but 0xd8 | 0x20 is no letter), needles starting with a letter or not, matches at the
// ends and across the eight-byte blocks.
TEST(LogText, IfindEqualsASearchOfTheLowercasedText) {
  std::mt19937 rng(20261202);
  const std::string alphabet = "aAbBxXyY09 .:_\xd8\xf8\xc1\x80";
  const std::string needle_alphabet = "abxy09 .:_\xd8";
  for (int round = 0; round < 4000; ++round) {
    std::string hay(rng() % 70, ' ');
    for (char& c : hay) c = alphabet[rng() % alphabet.size()];
    std::string needle(1 + rng() % 4, ' ');
    for (char& c : needle) c = needle_alphabet[rng() % needle_alphabet.size()];
    const std::string lowered = ascii_lower(hay);
    for (size_t from = 0; from <= hay.size(); from += 1 + rng() % 5) {
      const size_t want = needle.size() <= hay.size() ? lowered.find(needle, from) : std::string::npos;
      ASSERT_EQ(ifind(hay, needle, from), want) << "hay '" << hay << "' needle '" << needle << "' from " << from;
    }
  }
  EXPECT_EQ(ifind("xxxxxxxxxxxxxxxxCUDA out of memory", "cuda"), 16u);
  EXPECT_EQ(ifind("0123456789abcdefA", "a"), 10u);
  EXPECT_EQ(ifind("0123456789", "a"), std::string::npos);
  EXPECT_EQ(ifind("", "a"), std::string::npos);
  EXPECT_EQ(ifind("abc", ""), 0u);
  EXPECT_EQ(ifind("abc", "a", 5), std::string::npos);
  EXPECT_EQ(ifind("abcdefghABCDEFGH", "h", 8), 15u);  // two blocks long, the match last
  EXPECT_EQ(ifind("abcdefghABCDEFGH", "gh", 7), 14u);
}

// Words: whole words (contains_word), word starts (contains_word_start: "works" in "it works",
// not in "frameworks"; a needle opening with punctuation anywhere).
TEST(LogText, WordsAndWordStarts) {
  EXPECT_TRUE(contains_word("not enough ram.", "ram"));
  EXPECT_FALSE(contains_word("program crashed", "ram"));
  EXPECT_FALSE(contains_word("ram_usage", "ram"));
  EXPECT_TRUE(is_word_at("a leak", 2, 4));
  EXPECT_FALSE(is_word_at("a leaks", 2, 4));
  EXPECT_TRUE(contains_word_start("setting it to 0 works", "works"));
  EXPECT_TRUE(contains_word_start("it worked", "work"));
  EXPECT_FALSE(contains_word_start("other frameworks", "works"));
  EXPECT_FALSE(contains_word_start("see the resolution", "solution"));
  EXPECT_TRUE(contains_word_start("calling loss.item() fixed it", ".item()"));
  EXPECT_FALSE(contains_word_start("", "x"));
}

// A logger's prefix tells a program's line from a person's sentence; a title's tag in brackets is
// not one.
TEST(LogText, LogPrefixIsALoggersNotATitlesTag) {
  EXPECT_TRUE(has_log_prefix("2024-05-01 10:11:12,345 INFO fixed by retry"));
  EXPECT_TRUE(has_log_prefix("[2024-05-01 10:11:12] solved"));
  EXPECT_TRUE(has_log_prefix("[rank0]: torch.OutOfMemoryError"));
  EXPECT_TRUE(has_log_prefix("W0501 10:11:12.123456 42 bfc_allocator.cc:12] Allocator ran out"));
  EXPECT_TRUE(has_log_prefix("WARNING: the fix is to lower max_length"));
  EXPECT_TRUE(has_log_prefix("> (pid=12) worker killed"));
  EXPECT_TRUE(has_log_prefix("2024/05/01 10:11:12 - mmengine - INFO - the fix is to lower max_length"));
  EXPECT_TRUE(has_log_prefix("Warning: the fix is to lower max_length"));
  EXPECT_TRUE(has_log_prefix("[INFO] solved"));
  EXPECT_TRUE(has_log_prefix("(RayWorker pid=12, ip=10.0.0.1) killed"));
  EXPECT_FALSE(has_log_prefix("[UX][Bugfix] Fix OOM by setting max_split_size_mb"));
  EXPECT_FALSE(has_log_prefix("[Bug]: vLLM OOM on A100 due to max_model_len 131072"));
  EXPECT_FALSE(has_log_prefix("(rank 0 loads all checkpoints onto GPU 0, which caused the OOM)"));
  EXPECT_FALSE(has_log_prefix("Reducing num_workers to 0 solved it"));
  EXPECT_FALSE(has_log_prefix("> Lowering the batch size fixed it"));
  EXPECT_FALSE(has_log_prefix(""));
}

TEST(LogText, TheFirstGpuAloneUsed) {
  EXPECT_TRUE(only_first_gpu_used("the memory can only used in the first gpu"));
  EXPECT_TRUE(only_first_gpu_used("only gpu 0 is used, the other three sit empty"));
  EXPECT_TRUE(only_first_gpu_used("everything only goes to cuda:0"));
  EXPECT_FALSE(only_first_gpu_used("i only use gpu 0"));              // which GPU a one-GPU run uses
  EXPECT_FALSE(only_first_gpu_used("i only have 8 gb on gpu 0"));     // no use named
  EXPECT_FALSE(only_first_gpu_used("the memory is used on the first gpu"));  // no "only"
  EXPECT_FALSE(only_first_gpu_used("only the second gpu is used"));
  EXPECT_TRUE(only_first_gpu_used("all the memory goes to gpu 0 only"));                      // "only" after the GPU
  EXPECT_TRUE(only_first_gpu_used("only the memory of the first gpu increases"));
  EXPECT_FALSE(only_first_gpu_used("gpu 0 memory used: only 4.1gb of 24gb"));                 // a reading
  EXPECT_FALSE(only_first_gpu_used("to use only the first gpu set cuda_visible_devices=0"));  // advice
}

// The one list of GPU model names: each name with one memory size resolves in gpus.h's
// catalogue; names read by gpu_named(), card numbers only where a word starts and not as "1080p".
TEST(LogText, GpuModelNamesResolveAndAreRead) {
  for (const GpuModelName& g : gpu_model_names()) {
    if (!g.catalog.empty()) {
      EXPECT_NO_THROW(oomkit::find_gpu(std::string(g.catalog))) << g.word;
    }
    EXPECT_TRUE(gpu_named("trained on one " + std::string(g.word) + " here")) << g.word;
  }
  EXPECT_TRUE(gpu_named("an mi300x with 192 gb"));
  EXPECT_TRUE(gpu_named("a 2080 ti with 11 gb"));
  EXPECT_FALSE(gpu_named("resized to 1080p"));          // a video resolution
  EXPECT_FALSE(gpu_named("step 13090 of 20000"));       // a card's number inside a larger one
  EXPECT_FALSE(gpu_named("the a1000b checkpoint"));      // a model name inside a word
  EXPECT_TRUE(gpu_named("a single titan x (pascal)"));   // a card's line before its model's letters
  EXPECT_TRUE(gpu_named("two titan rtx cards"));
  EXPECT_FALSE(gpu_named("amazon.titan-embed-text-v1"));  // Amazon's Titan models
  EXPECT_FALSE(gpu_named("the titan graph database"));
  EXPECT_TRUE(gpu_named("8卡训练也爆"));     // cards counted by their digits
  EXPECT_TRUE(gpu_named("用2卡跑"));
  EXPECT_FALSE(gpu_named("第3卡住了"));      // 卡住: stuck
  EXPECT_FALSE(gpu_named("step 100卡死"));  // 卡死: hangs
  EXPECT_TRUE(gpu_named("用 8 卡训练"));     // a space before 卡
  EXPECT_TRUE(gpu_named("四卡训练"));        // 四: four
  EXPECT_FALSE(gpu_named("训练到epoch 3卡了一下"));  // 卡了: got stuck
}

TEST(LogText, MemoryToldAsFull) {
  EXPECT_TRUE(memory_full_told("i have 24 gb of ram and it gets completely full"));
  EXPECT_TRUE(memory_full_told("vram becomes full after a few steps"));
  EXPECT_TRUE(memory_full_told("the gpu memory is full."));
  EXPECT_FALSE(memory_full_told("the gpu memory never gets full"));                      // denied
  EXPECT_FALSE(memory_full_told("the disk is full, ram usage is 12 gb"));                // a disk
  EXPECT_FALSE(memory_full_told("the memory is fully utilized"));                        // "fully"
  EXPECT_FALSE(memory_full_told("the ram is full speed ddr5"));                          // a full something
  EXPECT_FALSE(memory_full_told("warning: /tmp is full of old checkpoints; memory ok"));  // /tmp, "full of"
}

// A machine's memory beyond any accelerator's: 256 GiB or more beside a machine's noun.
TEST(LogText, HostSizedMemoryNamed) {
  EXPECT_TRUE(host_sized_memory_named("we run out of memory even on our cluster's 1.5tb nodes"));
  EXPECT_TRUE(host_sized_memory_named("a server with 768 gb of ram"));
  EXPECT_FALSE(host_sized_memory_named("a gpu with 80gb, 512 images per node"));
  EXPECT_FALSE(host_sized_memory_named("the 1.5tb dataset"));
  EXPECT_FALSE(host_sized_memory_named("a 192gb node"));  // an MI300X's size: not beyond every accelerator
}

// A count's place (begin, end) and the word "after" before it, fillers aside: one reading for the
// context's few-first-steps and late-at-batch-1 readings.
TEST(LogText, CountToldAfter) {
  auto after = [](std::string_view lo) {
    const std::vector<ProseCount> c = prose_counts(lo);
    EXPECT_EQ(c.size(), 1u) << lo;
    return !c.empty() && count_told_after(lo, c.front());
  };
  const std::vector<ProseCount> c = prose_counts("oom after 1,200 steps");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].begin, 10u);
  EXPECT_EQ(c[0].end, 15u);
  EXPECT_DOUBLE_EQ(c[0].value, 1200);
  EXPECT_TRUE(after("oom after 5 iterations"));
  EXPECT_TRUE(after("only after the first 10 iterations"));
  EXPECT_TRUE(after("after about 3000 steps it fails"));
  EXPECT_TRUE(after("after ~ 55000 iters"));
  EXPECT_TRUE(after("after more than 2 epochs"));
  EXPECT_FALSE(after("hereafter 5 steps"));         // "after" inside a word
  EXPECT_FALSE(after("at 5 iterations after"));     // "after" past the count
  EXPECT_FALSE(after("after loading 5 files"));     // a word between that is no filler
  EXPECT_FALSE(after("5 steps"));
}
