// Tests of parse_oom_log(): every family, real messages from public issue threads
// (tests/data/oom-cases/), noisy embeddings and garbage.
//
// Expected sizes are computed here, independently of the parser: a printed "79.26 GiB" is
// round(79.26 * 2^30) bytes (PyTorch's format_size prints two decimals of a binary unit), and MPS
// messages' "GB" means GiB (MPSAllocator's format_size divides by 1024 but labels "GB").
#include <cmath>
#include <limits>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "oomkit/diagnose/oom_record.h"

using namespace oomkit;

namespace {

int64_t size_of(double value, const std::string& unit) {
  double factor = 1;
  if (unit == "KiB") factor = 1024.0;
  else if (unit == "MiB") factor = 1024.0 * 1024.0;
  else if (unit == "GiB") factor = 1024.0 * 1024.0 * 1024.0;
  else if (unit == "bytes") factor = 1;
  else ADD_FAILURE() << "test helper: unknown unit " << unit;
  return static_cast<int64_t>(std::llround(value * factor));
}

// "1.71 GiB" -> bytes, by the rule in the file comment.
int64_t printed(const std::string& text) {
  std::istringstream in(text);
  double v = 0;
  std::string unit;
  in >> v >> unit;
  return size_of(v, unit);
}

std::vector<nlohmann::json> read_jsonl(const std::string& name) {
  std::ifstream in(std::string(OOMKIT_SOURCE_DIR) + "/tests/data/oom-cases/" + name);
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

std::optional<int64_t> field(const OomRecord& r, const std::string& name) {
  const nlohmann::json j = oom_record_to_json(r);
  if (!j.contains(name)) return std::nullopt;
  return j[name].get<int64_t>();
}

OomRecord only(const std::string& text) {
  auto records = parse_oom_log(text);
  EXPECT_EQ(records.size(), 1u) << text;
  return records.empty() ? OomRecord{} : records.front();
}

}  // namespace

// Each of the eight real messages in cases.jsonl is found once, with its family and the sizes
// it prints (read off the message text by hand).
TEST(OomParserCases, EveryCaseParsesWithItsNumbers) {
  const auto cases = read_jsonl("cases.jsonl");
  ASSERT_EQ(cases.size(), 8u);
  std::map<std::string, OomRecord> by_id;
  for (const auto& c : cases) by_id[c["id"]] = only(c["message"].get<std::string>());

  const OomRecord& frag = by_id["pytorch-152135-fragmentation-after-hours"];
  EXPECT_EQ(frag.family, "pytorch2");
  EXPECT_EQ(frag.device, "cuda:0");
  EXPECT_EQ(frag.requested_bytes, printed("250.00 MiB"));
  EXPECT_EQ(frag.total_capacity_bytes, printed("79.26 GiB"));
  EXPECT_EQ(frag.free_bytes, printed("104.75 MiB"));
  EXPECT_EQ(frag.allocated_bytes, printed("74.77 GiB"));
  EXPECT_EQ(frag.reserved_unallocated_bytes, printed("3.87 GiB"));
  EXPECT_EQ(frag.reserved_bytes, printed("74.77 GiB") + printed("3.87 GiB"));
  ASSERT_EQ(frag.processes.size(), 1u);
  EXPECT_EQ(frag.processes[0].pid, 1007710);
  EXPECT_EQ(frag.processes[0].bytes, printed("79.14 GiB"));
  EXPECT_FALSE(frag.process_bytes.has_value());
  EXPECT_TRUE(frag.complete);

  const OomRecord& dcrnn = by_id["dcrnn-6-reduce-batch"];
  EXPECT_EQ(dcrnn.family, "pytorch1");
  EXPECT_EQ(dcrnn.requested_bytes, printed("20.00 MiB"));
  EXPECT_EQ(dcrnn.total_capacity_bytes, printed("5.80 GiB"));
  EXPECT_EQ(dcrnn.allocated_bytes, printed("4.36 GiB"));
  EXPECT_EQ(dcrnn.free_bytes, printed("6.69 MiB"));
  EXPECT_EQ(dcrnn.reserved_bytes, printed("4.63 GiB"));
  EXPECT_EQ(dcrnn.reserved_unallocated_bytes, printed("4.63 GiB") - printed("4.36 GiB"));

  const OomRecord& mistral = by_id["mistral-finetune-69-a10g-7b"];
  EXPECT_EQ(mistral.family, "pytorch2");
  EXPECT_EQ(mistral.requested_bytes, printed("896.00 MiB"));
  EXPECT_EQ(mistral.total_capacity_bytes, printed("21.99 GiB"));
  EXPECT_EQ(mistral.free_bytes, printed("759.38 MiB"));
  EXPECT_EQ(mistral.process_bytes, 0);
  EXPECT_EQ(mistral.allocated_bytes, printed("20.52 GiB"));
  EXPECT_EQ(mistral.reserved_unallocated_bytes, printed("102.08 MiB"));

  const OomRecord& ds = by_id["deepspeed-3208-opt13b-adam-on-15gb"];
  EXPECT_EQ(ds.family, "pytorch1");
  EXPECT_EQ(ds.requested_bytes, printed("256.00 MiB"));
  EXPECT_EQ(ds.total_capacity_bytes, printed("14.56 GiB"));
  EXPECT_EQ(ds.allocated_bytes, printed("13.30 GiB"));
  EXPECT_EQ(ds.free_bytes, printed("230.50 MiB"));
  EXPECT_EQ(ds.reserved_bytes, printed("13.65 GiB"));

  const OomRecord& skorch = by_id["skorch-218-validation-without-no-grad"];
  EXPECT_EQ(skorch.family, "cuda_error_oom");
  EXPECT_FALSE(skorch.requested_bytes.has_value());

  const OomRecord& cut = by_id["transformer-lm-21-resume-all-ranks-on-gpu0"];
  EXPECT_EQ(cut.family, "pytorch1");
  EXPECT_FALSE(cut.complete);  // the stored copy ends in "17.19 MiB f"
  EXPECT_EQ(cut.total_capacity_bytes, printed("11.17 GiB"));
  EXPECT_EQ(cut.allocated_bytes, printed("962.69 MiB"));
  EXPECT_FALSE(cut.free_bytes.has_value());
  EXPECT_FALSE(cut.reserved_bytes.has_value());

  const OomRecord& cpu = by_id["anomalib-1094-padim-memory-bank"];
  EXPECT_EQ(cpu.family, "cpu_default_allocator");
  EXPECT_EQ(cpu.requested_bytes, 35896320000);

  EXPECT_EQ(by_id["deepspeedexamples-323-cublas-alloc-failed"].family, "cublas_alloc_failed");
}

// Real messages of the other families and formats (variants.jsonl): family, device and every
// printed size.
TEST(OomParserVariants, FamiliesDevicesAndSizes) {
  const auto variants = read_jsonl("variants.jsonl");
  ASSERT_GE(variants.size(), 15u);
  for (const auto& v : variants) {
    SCOPED_TRACE(v["id"].get<std::string>());
    const OomRecord r = only(v["message"].get<std::string>());
    EXPECT_EQ(r.family, v["family"].get<std::string>());
    EXPECT_EQ(r.device, v["device"].get<std::string>());
    for (const auto& [key, text] : v["expect"].items()) {
      EXPECT_EQ(field(r, key), printed(text.get<std::string>())) << key;
    }
  }
}

// PyTorch 1.0-1.3 printed "C cached" = amount_cached - amount_allocated (THCCachingAllocator),
// the cached free part: reserved is allocated + C, never C alone (a reserved below allocated
// cannot be). Issue 10, kind 8: 10.20 GiB allocated + 3.90 GiB cached = 14.10 GiB reserved.
TEST(OomParserVariants, OldCachedIsTheFreeCachedPart) {
  const OomRecord r = only("RuntimeError: CUDA out of memory. Tried to allocate 2.50 GiB (GPU 0; 15.90 GiB total "
                           "capacity; 10.20 GiB already allocated; 1.10 GiB free; 3.90 GiB cached)");
  EXPECT_EQ(r.family, "pytorch1");
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.reserved_unallocated_bytes, printed("3.90 GiB"));
  EXPECT_EQ(r.reserved_bytes, printed("10.20 GiB") + printed("3.90 GiB"));
  EXPECT_GE(*r.reserved_bytes, *r.allocated_bytes);
}

// "more than 1EB" is a lower bound, not a size.
TEST(OomParserVariants, MoreThanOneExbibyteIsALowerBound) {
  const OomRecord r = only("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate more than 1EB memory");
  EXPECT_TRUE(r.requested_is_lower_bound);
  EXPECT_EQ(r.requested_bytes, int64_t{1} << 60);
}

// oomkit's own CPU-budget message, exactly as the memory backend prints it.
TEST(OomParserFamilies, OomkitCpuBudget) {
  const OomRecord r = only(
      "CPU out of memory (oomkit --memory-limit). Tried to allocate 20.00 MiB. CPU 0 has a total capacity of "
      "512.00 MiB of which 3.00 MiB is free. Of the allocated memory 509.00 MiB is allocated by PyTorch, and 0 "
      "bytes is reserved by PyTorch but unallocated.");
  EXPECT_EQ(r.family, "oomkit_cpu_budget");
  EXPECT_EQ(r.device, "cpu");
  EXPECT_EQ(r.requested_bytes, 20 * (1 << 20));
  EXPECT_EQ(r.total_capacity_bytes, 512 * (1 << 20));
  EXPECT_EQ(r.free_bytes, 3 * (1 << 20));
  EXPECT_EQ(r.allocated_bytes, 509 * (1 << 20));
  EXPECT_EQ(r.reserved_unallocated_bytes, 0);
  EXPECT_TRUE(r.complete);
}

// The 2.x private-pools and 1.x "allowed" wordings, composed from PyTorch's format strings
// (c10/cuda/CUDACachingAllocator.cpp; pytorch/pytorch#124673 added the private-pool clause).
TEST(OomParserFamilies, PrivatePoolsAndOneXAllowed) {
  const OomRecord p = only(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
      "39.38 GiB of which 1.50 GiB is free. Including non-PyTorch memory, this process has 37.87 GiB memory in "
      "use. Of the allocated memory 30.00 GiB is allocated by PyTorch, with 12.00 GiB allocated in private pools "
      "(e.g., CUDA Graphs), and 6.00 GiB is reserved by PyTorch but unallocated.");
  EXPECT_EQ(p.family, "pytorch2");
  EXPECT_EQ(p.private_pool_bytes, printed("12.00 GiB"));
  EXPECT_EQ(p.allocated_bytes, printed("30.00 GiB"));
  EXPECT_EQ(p.reserved_unallocated_bytes, printed("6.00 GiB"));
  EXPECT_EQ(p.reserved_bytes, printed("36.00 GiB"));
  EXPECT_EQ(p.process_bytes, printed("37.87 GiB"));

  const OomRecord a = only(
      "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 11.17 GiB total capacity; 4.74 GiB "
      "already allocated; 6.19 GiB free; 4.77 GiB allowed; 4.74 GiB reserved in total by PyTorch)");
  EXPECT_EQ(a.family, "pytorch1");
  EXPECT_EQ(a.allowed_bytes, printed("4.77 GiB"));
  EXPECT_EQ(a.effective_capacity_bytes(), printed("4.77 GiB"));
  EXPECT_EQ(a.free_bytes, printed("6.19 GiB"));
}

// A report embedded in a real-looking log: ANSI colours, CRLF line ends, timestamps and rank
// prefixes, a traceback, and the message wrapped over three lines (once mid-word, "G" + "iB")
// reads the same as the one-line original.
TEST(OomParserNoise, TracebackAnsiCrlfPrefixesAndWrapping) {
  const std::string log =
      "2024-05-11 14:10:52.224 INFO step 10 loss 3.21\r\n"
      "[rank0]: Traceback (most recent call last):\r\n"
      "[rank0]:   File \"train.py\", line 88, in <module>\r\n"
      "[rank0]:     loss.backward()\r\n"
      "[rank0]: \x1b[31mtorch.OutOfMemoryError\x1b[0m: CUDA out of memory. Tried to allocate 250.00 MiB. GPU 0 has a total capacity of 79.26 G\r\n"
      "[rank0]: iB of which 104.75 MiB is free. Process 1007710 has 79.14 GiB memory in use. Of the allocated memory\r\n"
      "[rank0]:  74.77 GiB is allocated by PyTorch, and 3.87 GiB is reserved by PyTorch but unallocated.\r\n"
      "2024-05-11 14:10:53.001 INFO shutting down\r\n";
  const OomRecord r = only(log);
  EXPECT_EQ(r.family, "pytorch2");
  EXPECT_EQ(r.line, 5);
  EXPECT_EQ(r.total_capacity_bytes, printed("79.26 GiB"));
  EXPECT_EQ(r.free_bytes, printed("104.75 MiB"));
  EXPECT_EQ(r.allocated_bytes, printed("74.77 GiB"));
  EXPECT_EQ(r.reserved_unallocated_bytes, printed("3.87 GiB"));
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.message.find("\x1b"), std::string::npos);
  EXPECT_EQ(r.message.find("[rank0]"), std::string::npos);
}

// Several different OOMs in one log are each reported, in order, with their line numbers; a
// repeat and pytest's cut-off summary copy merge into the first report.
TEST(OomParserNoise, SeveralOomsEachReportedRepeatsMerged) {
  const std::string a =
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.80 GiB total capacity; 4.36 GiB "
      "already allocated; 6.69 MiB free; 4.63 GiB reserved in total by PyTorch)";
  const std::string log = "epoch 1\n" + a + "\nretrying with a smaller batch\n" + a +
                          "\nRuntimeError: CUDA error: out of memory\n"
                          "CUDA kernel errors might be asynchronously reported at some other API call\n"
                          "RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't "
                          "allocate memory: you tried to allocate 35896320000 bytes. Error code 12 (Cannot allocate memory)\n"
                          "FAILED test_big.py::test_alloc - RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.80 GiB tot\n";
  const auto records = parse_oom_log(log);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].family, "pytorch1");
  EXPECT_EQ(records[0].line, 2);
  EXPECT_EQ(records[0].occurrences, 3);  // the repeat and the cut-off summary line
  EXPECT_EQ(records[1].family, "cuda_error_oom");
  EXPECT_EQ(records[1].line, 5);
  EXPECT_EQ(records[2].family, "cpu_default_allocator");
  EXPECT_EQ(records[2].line, 7);
  EXPECT_EQ(records[2].requested_bytes, 35896320000);
}

// Decimal units are decimal outside MPS messages: a user-typed "2.00 GB" is 2e9 bytes.
TEST(OomParserUnits, DecimalUnitsOutsideMps) {
  const OomRecord r = only("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GB (GPU 0; 16.00 GB total capacity; "
                           "12.50 GB already allocated; 1.00 GB free; 13.00 GB reserved in total by PyTorch)");
  EXPECT_EQ(r.requested_bytes, 2000000000);
  EXPECT_EQ(r.total_capacity_bytes, 16000000000);
}

// Garbage gives no record and no crash: empty text, binary noise, a huge line, prose that
// mentions OOMs without being one, numbers without a head.
TEST(OomParserGarbage, NoRecordNoCrash) {
  EXPECT_TRUE(parse_oom_log("").empty());
  EXPECT_TRUE(parse_oom_log("step 1 loss 3.2\nstep 2 loss 3.1\n").empty());
  EXPECT_TRUE(parse_oom_log("CUDA out of memory errors are common when the batch is large").empty());
  EXPECT_TRUE(parse_oom_log("we tried to allocate 20.00 MiB buffers up front, see the GPU 0 numbers").empty());
  std::mt19937 rng(7);
  std::string noise(200000, '\0');
  for (char& c : noise) c = static_cast<char>(rng() & 0xff);
  EXPECT_NO_THROW(parse_oom_log(noise));
  std::string huge(1 << 20, 'x');
  huge += " out of memory Tried to allocate 99999999999999999999999 GiB";
  EXPECT_NO_THROW(parse_oom_log(huge));
  const auto r = parse_oom_log("CUDA out of memory. Tried to allocate 99999999999999999999999 GiB.");
  ASSERT_EQ(r.size(), 1u);
  // An overflowing size is kept, capped and flagged (issue 10: a corrupted size is a finding),
  // never wrapped and never dropped.
  EXPECT_EQ(r[0].requested_bytes, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(r[0].size_overflow);
}

// JSON: sizes in bytes, absent fields omitted.
TEST(OomParserJson, SizesInBytesMissingOmitted) {
  const OomRecord r = only("RuntimeError: CUDA error: out of memory");
  const nlohmann::json j = oom_record_to_json(r);
  EXPECT_EQ(j["family"], "cuda_error_oom");
  EXPECT_FALSE(j.contains("requested_bytes"));
  const OomRecord c = only("DefaultCPUAllocator: can't allocate memory: you tried to allocate 1024 bytes.");
  EXPECT_EQ(oom_record_to_json(c)["requested_bytes"], 1024);
  // A size beyond int64 or printed negative: flagged, shown as printed, no stand-in number.
  for (const char* text : {"DefaultCPUAllocator: can't allocate memory: you tried to allocate -8589934592 bytes.",
                           "DefaultCPUAllocator: can't allocate memory: you tried to allocate 99999999999999999999999 bytes."}) {
    const nlohmann::json o = oom_record_to_json(only(text));
    EXPECT_FALSE(o.contains("requested_bytes")) << text;
    EXPECT_TRUE(o["size_overflow"].get<bool>()) << text;
    EXPECT_NE(o["requested_printed"].get<std::string>().find(" bytes"), std::string::npos) << text;
  }
}

// Build for the family, not the line: every real message (cases and variants), hard-wrapped at
// several widths (also mid-word and mid-number), each piece behind a log prefix, with CRLF line
// ends and ANSI colour on the first piece, parses to the same family and sizes as the original.
TEST(OomParserNoise, WrappedPrefixedCopiesParseLikeTheOriginal) {
  std::vector<nlohmann::json> all = read_jsonl("cases.jsonl");
  for (const auto& v : read_jsonl("variants.jsonl")) all.push_back(v);
  for (const auto& c : all) {
    const std::string message = c["message"].get<std::string>();
    if (message.find('\n') != std::string::npos) continue;  // already multi-line (NCCL, cudaMallocAsync)
    const auto original = parse_oom_log(message);
    ASSERT_EQ(original.size(), 1u) << c["id"];
    for (size_t width : {37u, 64u, 80u, 101u}) {
      SCOPED_TRACE(c["id"].get<std::string>() + " width " + std::to_string(width));
      std::string log = "2024-05-11 14:10:52,224 INFO step 7 loss 2.2\r\n";
      for (size_t i = 0; i < message.size(); i += width) {
        const std::string piece = message.substr(i, width);
        log += "[rank1]: " + (i == 0 ? "\x1b[31m" + piece + "\x1b[0m" : piece) + "\r\n";
      }
      log += "[rank1]: exiting\r\n";
      const auto wrapped = parse_oom_log(log);
      ASSERT_EQ(wrapped.size(), 1u);
      EXPECT_EQ(wrapped[0].family, original[0].family);
      // The record's line is the one holding the start of the family's head.
      size_t head = std::string::npos;
      const std::string lowered = [&] { std::string l = message; for (char& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch))); return l; }();
      for (const char* h : {"out of memory", "defaultcpuallocator", "cublas_status", "cudnn_status", "cuda_error_out",
                            "cuda runtime error", "allocation on device"}) {
        const size_t at = lowered.find(h);
        if (at == std::string::npos) continue;
        // "CUDA out of memory" starts at its device word.
        size_t start = at;
        if (std::string(h) == "out of memory" && at > 0) {
          size_t w = at - 1;
          while (w > 0 && std::isalpha(static_cast<unsigned char>(message[w - 1]))) --w;
          if (std::isalpha(static_cast<unsigned char>(message[w]))) start = w;
          if (lowered.compare(at >= 6 ? at - 6 : 0, 6, "error:") == 0 || lowered.compare(at >= 7 ? at - 7 : 0, 7, "error: ") == 0) start = at;
        }
        head = std::min(head, start);
      }
      ASSERT_NE(head, std::string::npos);
      EXPECT_EQ(wrapped[0].line, static_cast<int64_t>(2 + head / width));
      EXPECT_EQ(oom_record_to_json(wrapped[0]).dump().size() > 0, true);
      for (const char* key : {"requested_bytes", "total_capacity_bytes", "free_bytes", "allocated_bytes", "reserved_bytes",
                              "reserved_unallocated_bytes", "allowed_bytes", "process_bytes", "other_process_bytes",
                              "non_pytorch_bytes"}) {
        EXPECT_EQ(field(wrapped[0], key), field(original[0], key)) << key;
      }
    }
  }
}

// PyTorch 2.x's caching allocator warns when a cudaMalloc fails, before it flushes its cache and
// retries (alloc_block, c10/cuda/CUDACachingAllocator.cpp): exact bytes, cudaMemGetInfo's free and
// total. Repeated, it is one report; followed by the OutOfMemoryError of the failed retry, the
// error is the report.
TEST(OomParserFamilies, CachingAllocatorRetryWarning) {
  const std::string warning =
      "[rank6]:[W904 12:06:06.083917542 CUDACachingAllocator.cpp:3933] memory allocation failed with OOM on device 6 "
      "while trying to allocate 20971520 bytes (free: 16252928, total: 287428640768).\n";
  const auto repeated = parse_oom_log(warning + warning + warning);
  ASSERT_EQ(repeated.size(), 1u);
  const OomRecord& r = repeated[0];
  EXPECT_EQ(r.family, "pytorch_alloc_retry");
  EXPECT_EQ(r.device, "cuda:6");
  EXPECT_EQ(r.requested_bytes, int64_t{20971520});
  EXPECT_EQ(r.free_bytes, int64_t{16252928});
  EXPECT_EQ(r.total_capacity_bytes, int64_t{287428640768});
  EXPECT_EQ(r.occurrences, 3);

  const auto with_error = parse_oom_log(
      "[W903 13:41:51.709566905 CUDACachingAllocator.cpp:3934] memory allocation failed with OOM on device 0 while trying "
      "to allocate 42949672960 bytes (free: 33136967680, total: 33668857856).\n"
      "Traceback (most recent call last):\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 40.00 GiB. GPU 0 has a total capacity of 31.36 GiB "
      "of which 30.86 GiB is free. Including non-PyTorch memory, this process has 0 bytes memory in use. Of the allocated "
      "memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.\n");
  ASSERT_EQ(with_error.size(), 1u);
  EXPECT_EQ(with_error[0].family, "pytorch2");
  EXPECT_EQ(with_error[0].line, 3);
}

// The review's logs (tests/data/oom-corpus/README.md item 16): a warning and an error of another
// device or size stay two reports; warnings after the error are reports of their own; free and
// total printed with a unit are not this message's byte counts (left unread, not read wrong).
TEST(OomParserFamilies, CachingAllocatorRetryWarningEdges) {
  const std::string w6 =
      "[W904 12:06:06.083917542 CUDACachingAllocator.cpp:3933] memory allocation failed with OOM on device 6 while trying "
      "to allocate 20971520 bytes (free: 16252928, total: 287428640768).\n";
  const std::string e6 =
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 6 has a total capacity of 267.69 GiB of "
      "which 15.50 MiB is free. Of the allocated memory 250.00 GiB is allocated by PyTorch, and 17.00 GiB is reserved by "
      "PyTorch but unallocated.\n";
  const auto after = parse_oom_log(w6 + e6 + w6 + w6);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after[0].family, "pytorch2");
  EXPECT_EQ(after[0].occurrences, 1);
  EXPECT_EQ(after[1].family, "pytorch_alloc_retry");
  EXPECT_EQ(after[1].occurrences, 2);

  const std::string w3 =
      "[rank3]:[W904 12:06:06.08 CUDACachingAllocator.cpp:3933] memory allocation failed with OOM on device 3 while trying "
      "to allocate 7516192768 bytes (free: 1546649600, total: 191492980736).\n";
  EXPECT_EQ(parse_oom_log(w3 + e6).size(), 2u);

  const OomRecord units = only(
      "memory allocation failed with OOM on device 0 while trying to allocate 5.94 GB (free: 3.55 GB, total: 42.4 GB).");
  EXPECT_FALSE(units.free_bytes.has_value());
  EXPECT_FALSE(units.total_capacity_bytes.has_value());
}

// The review of the thirteenth pass (tests/data/oom-corpus/README.md item 17): a cut-off warning
// reads on only through lines that continue its wording (not a step line, a progress bar or
// another process's line, whose digits would glue onto its numbers), and is incomplete without
// its free figure; the expandable_segments warning is merged into the error that follows on its
// device whatever that error's size (the warning states the page, not the request); a "Current
// usage from device" status line without an allocator is no TensorFlow report, and TensorFlow's
// own report after its error is part of that error, not a second occurrence.
TEST(OomParserFamilies, CachingAllocatorRetryWarningReviewed) {
  const auto cut = parse_oom_log(
      "[W905 00:28:47 CUDACachingAllocator.cpp:3933] memory allocation failed with OOM on device 0 while trying to "
      "allocate 2587885568 bytes\n"
      "step 2 loss 1.9 (lr 3e-4)\n"
      "Checkpoint saved to /ckpt/model_3.pt\n");
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].text_lines, (std::vector<int64_t>{1}));
  EXPECT_EQ(cut[0].message.find("step 2"), std::string::npos);
  EXPECT_FALSE(cut[0].complete);
  const OomRecord bar = only(
      "memory allocation failed with OOM on device 0 while trying to allocate 2587885568 bytes (free: 2000093184, total: "
      "25295519744\n"
      "  3%|3         | 3/100 [00:05<02:41,  1.66s/it]\n");
  EXPECT_EQ(bar.total_capacity_bytes, int64_t{25295519744});
  EXPECT_TRUE(bar.complete);
  const OomRecord other_process = only(
      "(RayWorkerWrapper pid=4242) memory allocation failed with OOM on device 0\n"
      "(RayWorkerWrapper pid=4243) 12%|#2        | 12/100 [00:10<01:20]\n");
  EXPECT_EQ(other_process.device, "cuda:0");
  EXPECT_FALSE(other_process.complete);

  const auto mapped_then_error = parse_oom_log(
      "[rank0]:[W905 00:28:47 CUDACachingAllocator.cpp:508] expandable_segments: memory mapping failed with OOM on device 0 "
      "while trying to map 20971520 bytes (free: 4521984, total: 85031714816)\n"
      "Traceback (most recent call last):\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of "
      "which 4.31 MiB is free. Of the allocated memory 76.50 GiB is allocated by PyTorch, and 1.20 GiB is reserved by "
      "PyTorch but unallocated.\n");
  ASSERT_EQ(mapped_then_error.size(), 1u);
  EXPECT_EQ(mapped_then_error[0].family, "pytorch2");
  EXPECT_EQ(mapped_then_error[0].requested_bytes, int64_t{2} << 30);

  EXPECT_TRUE(parse_oom_log("epoch 1 step 100 loss 0.52\nCurrent usage from device: cuda:0, memory allocated 10.21 GiB / "
                            "23.65 GiB\n")
                  .empty());
  const auto echoed = parse_oom_log(
      "ResourceExhaustedError: OOM when allocating tensor with shape[8,128,256,256] and type float on "
      "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
      "Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom to "
      "RunOptions for current allocation info.\n"
      "Current usage from device: /job:localhost/replica:0/task:0/device:GPU:0, allocator: GPU_0_bfc\n");
  ASSERT_EQ(echoed.size(), 1u);
  EXPECT_EQ(echoed[0].occurrences, 1);
  const OomRecord after_hint = only(
      "Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom to "
      "RunOptions for current allocation info.\n"
      "Current usage from device: /job:localhost/replica:0/task:0/device:GPU:0, allocator: GPU_0_bfc\n");
  EXPECT_EQ(after_hint.text_lines, (std::vector<int64_t>{2}));
}

// After held18's score (tests/data/oom-corpus/README.md item 18; not tested apart): a library's
// own cudaMalloc failing with the runtime's "out of memory" is a CUDA runtime OOM with its size;
// failing with another error it is no OOM.
TEST(OomParserFamilies, LibraryCudaMallocFailed) {
  const OomRecord r = only(
      "RuntimeError: Error in void faiss::gpu::allocMemorySpaceV(...) at gpu/utils/MemorySpace.cpp:26: Error: 'err == "
      "cudaSuccess' failed: failed to cudaMalloc 1610612736 bytes (error 2 out of memory)\n");
  EXPECT_EQ(r.family, "cuda_error_oom");
  EXPECT_EQ(r.requested_bytes, int64_t{1610612736});
  EXPECT_TRUE(parse_oom_log("failed to cudaMalloc 1024 bytes (error 46 all CUDA-capable devices are busy or unavailable)\n")
                  .empty());
}

// Accelerators' own allocators outside CUDA (family device_alloc): Vulkan (ggml_vulkan's size line
// and its error code after it are one report; ncnn's code), Tenstorrent's bank manager (the bank
// figures times the banks), Sophon's bmlib (a hexadecimal size), OpenVINO's OpenCL limit on one
// allocation, Rockchip's RKNN. A user's sentence in the same words is not one.
TEST(OomParserFamilies, AcceleratorAllocators) {
  const auto vulkan = parse_oom_log(
      "ggml_vulkan: Device memory allocation of size 3959422976 failed.\n"
      "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n");
  ASSERT_EQ(vulkan.size(), 1u);
  EXPECT_EQ(vulkan[0].family, "device_alloc");
  EXPECT_EQ(vulkan[0].subsystem, "vulkan");
  EXPECT_EQ(vulkan[0].requested_bytes, int64_t{3959422976});
  EXPECT_EQ(vulkan[0].occurrences, 2);
  const OomRecord ncnn = only("[0 AMD Radeon RX 550] vkAllocateMemory failed -2\n");
  EXPECT_EQ(ncnn.subsystem, "vulkan");
  EXPECT_FALSE(ncnn.requested_bytes.has_value());

  const OomRecord tt = only(
      "TT_FATAL: Out of Memory: Not enough space to allocate 1050673152 B DRAM buffer across 12 banks, where each bank "
      "needs to store 87556096 B, but bank size is 1073741792 B (allocated: 943941568 B, free: 129800224 B, largest free "
      "block: 34201600 B)\n");
  EXPECT_EQ(tt.subsystem, "tt_metal");
  EXPECT_EQ(tt.device, "tt:dram");
  EXPECT_EQ(tt.requested_bytes, int64_t{1050673152});
  EXPECT_EQ(tt.total_capacity_bytes, int64_t{1073741792} * 12);
  EXPECT_EQ(tt.allocated_bytes, int64_t{943941568} * 12);
  EXPECT_EQ(tt.free_bytes, int64_t{129800224} * 12);
  EXPECT_EQ(tt.largest_free_block_bytes, int64_t{34201600} * 12);
  const OomRecord l1 = only(
      "Always | FATAL | Out of Memory: Not enough space to allocate 32768 B L1 buffer across 1 banks, where each bank "
      "needs to store 32768 B\n");
  EXPECT_EQ(l1.device, "tt:l1");
  EXPECT_EQ(l1.requested_bytes, int64_t{32768});
  EXPECT_FALSE(l1.total_capacity_bytes.has_value());

  const OomRecord bm = only("[bmlib_memory][error] bm_alloc_gmem failed, dev_id = 1, size = 0x639c00\n");
  EXPECT_EQ(bm.subsystem, "bmlib");
  EXPECT_EQ(bm.device, "sophon:1");
  EXPECT_EQ(bm.requested_bytes, int64_t{0x639c00});
  EXPECT_EQ(bm.requested_printed, "0x639c00");

  const OomRecord cl = only(
      "[GPU] Exceeded max size of memory object allocation: requested 6442450944 bytes, but max alloc size supported by "
      "device is 4294959104 bytes.Please try to reduce batch size or use lower precision.\n");
  EXPECT_EQ(cl.subsystem, "opencl");
  EXPECT_EQ(cl.requested_bytes, int64_t{6442450944});
  EXPECT_EQ(cl.max_allocation_bytes, int64_t{4294959104});

  // Rockchip's RKNN (an NPU), as Android Studio's logcat prints it: the second line is the same
  // failure's consequence, "pid-tid E/TAG: " is no part of the message.
  const OomRecord rknn = only(
      "2023-01-02 10:11:12.345 4321-4388 E/RKNN: failed to malloc npu memory!, size: 12582912, flags: 0x2\n"
      "2023-01-02 10:11:12.346 4321-4388 E/RKNN: rknn_init, load model failed!\n");
  EXPECT_EQ(rknn.subsystem, "rknn");
  EXPECT_EQ(rknn.device, "npu");
  EXPECT_EQ(rknn.requested_bytes, int64_t{12582912});
  EXPECT_EQ(rknn.message.rfind("failed to malloc npu memory", 0), 0u) << rknn.message;

  EXPECT_TRUE(parse_oom_log("there is not enough space to allocate the dataset on this disk\n").empty());
  EXPECT_TRUE(parse_oom_log("Device memory allocation of size 1024 took 3 ms\n").empty());
}

// ggml's CUDA / HIP backend and its graph allocator's line after it are one report, with the size
// (tests/data/oom-corpus/README.md item 20); the graph allocator alone names its backend's device,
// a CPU buffer is host memory; OpenCV's allocator is host memory with its size.
TEST(OomParserFamilies, GgmlAndOpenCv) {
  const auto llama = parse_oom_log(
      "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 17536.01 MiB on device 0: cudaMalloc failed: out of memory\n"
      "ggml_gallocr_reserve_n: failed to allocate ROCm0 buffer of size 18387836928\n"
      "llama_new_context_with_model: failed to allocate compute buffers\n");
  ASSERT_EQ(llama.size(), 1u);
  EXPECT_EQ(llama[0].family, "cuda_error_oom");
  EXPECT_EQ(llama[0].device, "hip:0");  // ggml's HIP build says "cudaMalloc"; the graph allocator names ROCm0
  EXPECT_NEAR(static_cast<double>(*llama[0].requested_bytes), 17536.01 * 1048576.0, 0.005 * 1048576.0);
  const OomRecord graph = only("ggml_gallocr_reserve_n: failed to allocate CUDA1 buffer of size 2166360064\n");
  EXPECT_EQ(graph.family, "device_alloc");
  EXPECT_EQ(graph.subsystem, "ggml");
  EXPECT_EQ(graph.device, "cuda:1");
  EXPECT_EQ(graph.requested_bytes, int64_t{2166360064});
  const OomRecord cpu = only("llama_kv_cache_init: failed to allocate CPU buffer of size 34359738368\n");
  EXPECT_EQ(cpu.family, "host_alloc");
  EXPECT_EQ(cpu.requested_bytes, int64_t{34359738368});
  EXPECT_TRUE(parse_oom_log("I failed to allocate memory for the model\nfailed to allocate compute buffers\n").empty());
  for (const char* other : {"error: failed to allocate output buffer of size 4096\n",
                            "snd_hda_intel 0000:00:1f.3: failed to allocate DMA buffer of size 65536\n",
                            "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1024.00 MiB on device 0: cudaMalloc failed: "
                            "invalid argument\nalloc_tensor_range: failed to allocate CUDA0 buffer of size 1073741824\n",
                            "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 51748.72 MiB on device 1: cudaMalloc failed: "
                            "out of memory\nggml_gallocr_reserve_n_impl: failed to allocate CUDA1 buffer of size 54262505472\n"
                            "graph_reserve: failed to allocate compute buffers\n"
                            "W sched_reserve: compute buffer allocation failed, retrying without pipeline parallelism\n"}) {
    for (const OomRecord& r : parse_oom_log(other)) EXPECT_NE(r.family, "device_alloc") << other;
    for (const OomRecord& r : parse_oom_log(other)) EXPECT_NE(r.family, "cuda_error_oom") << other;
  }
  // The head's own line is read, not an earlier one folded into the report.
  const OomRecord metal = only(
      "Error: 500 llama runner process has terminated: error:failed to allocate buffer, size = 33074.89 MiB\n"
      "ggml_gallocr_reserve_n: failed to allocate Metal buffer of size 34681522080\n");
  EXPECT_EQ(metal.device, "mps");
  EXPECT_EQ(metal.requested_bytes, int64_t{34681522080});
  EXPECT_EQ(only("llama_context: allocating output buffers for 512 tokens\n"
                 "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 17536.01 MiB on device 1: cudaMalloc failed: out of "
                 "memory\n")
                .device,
            "cuda:1");
  EXPECT_EQ(only("alloc_tensor_range: failed to allocate CUDA_Host buffer of size 2166360064\n").family, "host_alloc");
  // A failure on the GPU is not merged into a host failure before it.
  EXPECT_EQ(parse_oom_log("terminate called after throwing an instance of 'std::bad_alloc'\n"
                          "alloc_tensor_range: failed to allocate CUDA0 buffer of size 9663676416\n")
                .size(),
            2u);
  const auto cv = parse_oom_log(
      "OpenCV Error: Insufficient memory (Failed to allocate 192000004 bytes) in cv::OutOfMemoryError, file alloc.cpp, line 52\n"
      "cv2.error: alloc.cpp:52: error: (-4) Failed to allocate 192000004 bytes in function cv::OutOfMemoryError\n");
  ASSERT_EQ(cv.size(), 1u);
  EXPECT_EQ(cv[0].family, "host_alloc");
  EXPECT_EQ(cv[0].subsystem, "opencv");
  EXPECT_EQ(cv[0].requested_bytes, int64_t{192000004});
  // OpenCV 4.x on Linux names no namespace; the symbol alone, in a question, is no report.
  const OomRecord cv4 = only(
      "cv2.error: OpenCV(4.5.1) /tmp/opencv/modules/core/src/alloc.cpp:73: error: (-4:Insufficient memory) Failed to "
      "allocate 192000004 bytes in function 'OutOfMemoryError'\n");
  EXPECT_EQ(cv4.subsystem, "opencv");
  EXPECT_EQ(cv4.requested_bytes, int64_t{192000004});
  for (const OomRecord& r : parse_oom_log("Does anyone know why cv::OutOfMemoryError happens? I have plenty of RAM.\n")) {
    EXPECT_NE(r.subsystem, "opencv");
  }
}

// The review of the accelerator families (tests/data/oom-corpus/README.md item 19): their own
// wordings only, Vulkan's host-memory codes as host memory, ggml's recovered pinned-memory warning
// as none, tt-metal read over its wrapped lines and from a full copy after a cut-off one, sizes
// beyond int64 flagged and printed whole.
TEST(OomParserFamilies, AcceleratorAllocatorsReviewed) {
  for (const char* prose : {"there is not enough space to allocate the buffer on disk\n",
                            "Warning: not enough space to allocate swap buffer, continuing\n",
                            "[x] Not enough space to allocate another buffer for the trace\n",
                            "The allocator said not enough space to allocate 20 MB buffer for logging.\n",
                            "Why does my program print vkAllocateMemory failed sometimes?\n",
                            "vkAllocateMemory failed -1000072003\n",
                            "The device memory allocation of size 512 MB failed because the driver was outdated\n"}) {
    EXPECT_TRUE(parse_oom_log(prose).empty()) << prose;
  }
  const OomRecord host = only("vkAllocateMemory failed -1\n");
  EXPECT_EQ(host.family, "host_alloc");
  EXPECT_EQ(host.subsystem, "vulkan_host");
  EXPECT_EQ(host.device, "cpu");
  const auto host_pair = parse_oom_log(
      "ggml_vulkan: Device memory allocation of size 1048898304 failed.\n"
      "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfHostMemory\n");
  ASSERT_EQ(host_pair.size(), 1u);
  EXPECT_EQ(host_pair[0].family, "host_alloc");
  EXPECT_EQ(host_pair[0].requested_bytes, int64_t{1048898304});
  EXPECT_TRUE(parse_oom_log("ggml_vulkan: Failed to allocate pinned memory.\n"
                            "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory\n"
                            "main: server is listening on http://127.0.0.1:8080\n")
                  .empty());

  const OomRecord wrapped = only(
      "E   RuntimeError: TT_FATAL @ tt_metal/impl/allocator/bank_manager.cpp:462\n"
      "E   Out of Memory: Not enough space to allocate 55444480 B L1 buffer across 70\n"
      "E   banks, where each bank needs to store 792064 B, but bank size is 1393472 B\n"
      "E   (allocated: 923776 B, free: 469696 B, largest free block: 373824 B)\n"
      "E   backtrace: tt::tt_metal::BankManager::allocate_buffer\n");
  EXPECT_EQ(wrapped.total_capacity_bytes, int64_t{1393472} * 70);
  EXPECT_EQ(wrapped.free_bytes, int64_t{469696} * 70);
  EXPECT_EQ(wrapped.largest_free_block_bytes, int64_t{373824} * 70);
  EXPECT_EQ(wrapped.laid_out_bytes, int64_t{792064} * 70);
  EXPECT_EQ(wrapped.message.find("backtrace"), std::string::npos);
  const OomRecord small = only("Out of Memory: Not enough space to allocate 1024 B L1_SMALL buffer across 64 banks, where "
                               "each bank needs to store 16 B, but bank size is 0 B\n");
  EXPECT_EQ(small.device, "tt:l1_small");
  EXPECT_EQ(small.total_capacity_bytes, int64_t{0});
  EXPECT_EQ(small.message.rfind("Out of Memory: Not enough space", 0), 0u);
  const std::string full =
      "Out of Memory: Not enough space to allocate 3294625792 B DRAM buffer across 12 banks, where each bank needs to "
      "store 274686208 B, but bank size is 1071821792 B (allocated: 784847680 B, free: 286974112 B, largest free block: "
      "216504544 B)\n";
  const auto cut_first = parse_oom_log(
      "FAILED test_vae - RuntimeError: Out of Memory: Not enough space to allocate 3294625792 B DRAM buffer across 12 "
      "banks, where each bank needs to store 274686208 B\n"
      "E   RuntimeError: TT_FATAL @ bank_manager.cpp:462: false\n" + full);
  ASSERT_EQ(cut_first.size(), 1u);
  EXPECT_EQ(cut_first[0].largest_free_block_bytes, int64_t{216504544} * 12);
  EXPECT_EQ(cut_first[0].total_capacity_bytes, int64_t{1071821792} * 12);

  const OomRecord wrapped_size = only("ggml_vulkan: Device memory allocation of size 18446744073709551104 failed.\n");
  EXPECT_TRUE(wrapped_size.size_overflow);
  EXPECT_EQ(wrapped_size.requested_printed, "18446744073709551104");
  const OomRecord hex_big = only("bm_alloc_gmem failed, dev_id = 0, size = 0x12345678901234567\n");
  EXPECT_TRUE(hex_big.size_overflow);
  EXPECT_EQ(hex_big.requested_printed, "0x12345678901234567");
  const OomRecord hex_max = only("bm_alloc_gmem failed, dev_id = 0, size = 0x7fffffffffffffff\n");
  EXPECT_FALSE(hex_max.size_overflow);
  EXPECT_EQ(hex_max.requested_bytes, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(only("bm_alloc_gmem failed, dev_id = 0, size = 0xffffffffffffffff\n").requested_printed, "0xffffffffffffffff");
}

// TensorFlow's allocations report (report_tensor_allocations_upon_oom) pasted without the error
// above it is the OOM's report, with no size; after the error it is that error's echo.
TEST(OomParserFamilies, TensorFlowAllocationsReport) {
  const std::string dump =
      "Current usage from device: /job:localhost/replica:0/task:0/device:GPU:0, allocator: GPU_0_bfc\n"
      "  310.00MiB from model/block_3/conv2d/Conv2D\n"
      "  Remaining 840 nodes with 61.25MiB\n";
  const OomRecord alone = only(dump);
  EXPECT_EQ(alone.family, "tensorflow");
  EXPECT_FALSE(alone.requested_bytes.has_value());
  const auto after = parse_oom_log(
      "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
      "shape[8,128,256,256] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n" +
      dump);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].requested_bytes, int64_t{8} * 128 * 256 * 256 * 4);
  EXPECT_EQ(after[0].line, 1);
}

// The same warning as pasted from a terminal or a wrapped log view, broken over two or three lines
// (after "device 0", after "allocate", inside the parenthesis): one report with every number, and
// the lines it was read from. With PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True the allocator
// maps pages of a segment instead (c10/cuda/CUDACachingAllocator.cpp, as public logs print it) and its
// warning says "memory mapping failed ... while trying to map N bytes": the same record, subsystem
// "expandable_segments".
TEST(OomParserFamilies, CachingAllocatorRetryWarningWrapped) {
  const auto three = parse_oom_log(
      "step 412 loss 2.91\n"
      "CUDACachingAllocator: memory allocation failed with OOM on device 0\n"
      "while trying to allocate 2587885568 bytes (free: 2000093184,\n"
      "total: 25295519744)\n"
      "step 413 loss 2.90\n");
  ASSERT_EQ(three.size(), 1u);
  EXPECT_EQ(three[0].family, "pytorch_alloc_retry");
  EXPECT_EQ(three[0].requested_bytes, int64_t{2587885568});
  EXPECT_EQ(three[0].free_bytes, int64_t{2000093184});
  EXPECT_EQ(three[0].total_capacity_bytes, int64_t{25295519744});
  EXPECT_EQ(three[0].text_lines, (std::vector<int64_t>{2, 3, 4}));

  const OomRecord after_allocate = only(
      "    memory allocation failed with OOM on device 1 while trying to allocate\n"
      "    1090519040 bytes (free: 6223298560, total: 12884246528)\n");
  EXPECT_EQ(after_allocate.device, "cuda:1");
  EXPECT_EQ(after_allocate.requested_bytes, int64_t{1090519040});
  EXPECT_EQ(after_allocate.free_bytes, int64_t{6223298560});

  const auto mapping = parse_oom_log(
      "[rank0]:[W905 00:28:47 CUDACachingAllocator.cpp:508] expandable_segments:\n"
      "memory mapping failed with OOM on device 0 while trying to map 20971520 bytes\n"
      "(free: 4521984, total: 101971460096)\n"
      "[rank0]:[W905 00:28:48 CUDACachingAllocator.cpp:508] expandable_segments: memory mapping failed with OOM on "
      "device 0 while trying to map 20971520 bytes (free: 4521984, total: 101971460096)\n");
  ASSERT_EQ(mapping.size(), 1u);
  EXPECT_EQ(mapping[0].family, "pytorch_alloc_retry");
  EXPECT_EQ(mapping[0].subsystem, "expandable_segments");
  EXPECT_EQ(mapping[0].requested_bytes, int64_t{20971520});
  EXPECT_EQ(mapping[0].free_bytes, int64_t{4521984});
  EXPECT_EQ(mapping[0].total_capacity_bytes, int64_t{101971460096});
  EXPECT_EQ(mapping[0].occurrences, 2);
}

// After held21's score (tests/data/oom-corpus/README.md item 21): PyTorch's cudaMallocAsync
// message cut to its head, as ComfyUI's error report prints it, at the message's head only; Paddle
// Fluid's start-up pool ("enforce allocating <= available failed, A > B": plain byte counts).
TEST(OomParserFamilies, CutAsyncHeadAndPaddleFluidPool) {
  for (const char* cut : {"torch.OutOfMemoryError: Allocation on device \n", "- **Exception Message:** Allocation on device \n",
                          "2024-12-16 17:10:56,767 - root - ERROR - !!! Exception during processing !!! Allocation on device \n",
                          "Model loading failed: Allocation on device\n", "KSampler\nAllocation on device\n"}) {
    const OomRecord r = only(cut);
    EXPECT_EQ(r.family, "pytorch_async") << cut;
    EXPECT_EQ(r.subsystem, "cuda_malloc_async") << cut;
    EXPECT_FALSE(r.requested_bytes) << cut;
  }
  EXPECT_TRUE(parse_oom_log("I checked the allocation on device\n").empty());
  for (const char* heading : {"Allocation on device 0\n", "INFO: Allocation on device\n", "Q: Allocation on device\n",
                              "## Allocation on device\n"}) {
    EXPECT_TRUE(parse_oom_log(heading).empty()) << heading;
  }
  EXPECT_TRUE(parse_oom_log("Allocation on device memory is slow on this card\n").empty());
  const OomRecord whole = only("Allocation on device 0 would exceed allowed memory. (out of memory)\n");
  EXPECT_EQ(whole.device, "cuda:0");

  const OomRecord pool =
      only("paddle.fluid.core.EnforceNotMet: enforce allocating <= available failed, 14802874401 > 12088311552\n"
           " at [/paddle/paddle/fluid/platform/gpu_info.cc:119]\n");
  EXPECT_EQ(pool.family, "paddle");
  EXPECT_EQ(pool.subsystem, "fluid_pool");
  EXPECT_EQ(pool.requested_bytes, int64_t{14802874401});
  EXPECT_EQ(pool.free_bytes, int64_t{12088311552});
  EXPECT_EQ(pool.requested_printed, "14802874401");
  // A size with a unit or a decimal point is not this message's.
  const auto odd = parse_oom_log("EnforceNotMet: enforce allocating <= available failed, 14.8GB > 12GB\n");
  ASSERT_EQ(odd.size(), 1u);
  EXPECT_FALSE(odd[0].requested_bytes);
  // Paddle 2.x's message keeps its own reading.
  const OomRecord two = only("ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 18.062744MB memory on GPU 0, "
                             "5.726685GB memory has been allocated and available memory is only 17.537501MB.\n");
  EXPECT_EQ(two.subsystem, "paddle");
  EXPECT_TRUE(two.requested_bytes);
}

// After held22's score (tests/data/oom-corpus/README.md item 22): the JVM's OutOfMemoryError is
// host memory; ggml's context arena reports both its sizes; a markdown fence opening a pasted log
// is no part of the message after it.
TEST(OomParserFamilies, JvmHeapGgmlContextArenaAndFence) {
  for (const char* jvm : {"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n",
                          "Caused by: java.lang.OutOfMemoryError: GC overhead limit exceeded\n"}) {
    const OomRecord r = only(jvm);
    EXPECT_EQ(r.family, "host_alloc") << jvm;
    EXPECT_EQ(r.subsystem, "jvm") << jvm;
    EXPECT_EQ(r.device, "cpu") << jvm;
  }
  EXPECT_EQ(only("[ERROR] java.lang.OutOfMemoryError: GC overhead limit exceeded\n").subsystem, "jvm");
  EXPECT_TRUE(parse_oom_log("I read that \"not enough space in the context's memory pool\" means the arena is small\n").empty());
  // A size that is not plain bytes ("2e8") is no capacity.
  EXPECT_FALSE(only("ggml_new_object: not enough space in the context's memory pool (needed 1200, available 2e8)\n")
                   .total_capacity_bytes);
  // Python's MemoryError is still its own head only at the start of a line.
  EXPECT_EQ(only("MemoryError\n").subsystem, "python");

  const OomRecord arena =
      only("```\nggml_new_object: not enough space in the context's memory pool (needed 817088, available 811632)\n```\n");
  EXPECT_EQ(arena.family, "device_alloc");
  EXPECT_EQ(arena.subsystem, "ggml_context");
  EXPECT_EQ(arena.requested_bytes, int64_t{817088});
  EXPECT_EQ(arena.total_capacity_bytes, int64_t{811632});
  EXPECT_EQ(arena.message.rfind("ggml_new_object:", 0), 0u) << arena.message;
  const OomRecord vk = only("```\nggml_vulkan: Device memory allocation of size 118497280 failed.\n```\n");
  EXPECT_EQ(vk.message.find("```"), std::string::npos) << vk.message;
}

// After held24's score (tests/data/oom-corpus/README.md item 24): jemalloc's malloc() failure and
// a program's "Failed attempt to allocate N bytes" are host memory with their sizes; CuPy's pool
// reports its request, what it holds and its limit, thousands separators and all.
TEST(OomParserFamilies, JemallocMallocAndCupyPool) {
  const OomRecord je = only("<jemalloc>: Error in malloc(): out of memory. Requested: 12786980896, active: 64869105664\n");
  EXPECT_EQ(je.family, "host_alloc");
  EXPECT_EQ(je.subsystem, "jemalloc");
  EXPECT_EQ(je.device, "cpu");
  EXPECT_EQ(je.requested_bytes, int64_t{12786980896});
  EXPECT_EQ(je.allocated_bytes, int64_t{64869105664});
  const OomRecord m = only("Failed attempt to allocate 95668727220bytes;\nyou may not have enough free memory\n");
  EXPECT_EQ(m.subsystem, "malloc");
  EXPECT_EQ(m.requested_bytes, int64_t{95668727220});
  const OomRecord pool = only(
      "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 805,306,368 bytes (allocated so far: 536,870,912 bytes, "
      "limit set to: 1,073,741,824 bytes).\n");
  EXPECT_EQ(pool.family, "device_alloc");
  EXPECT_EQ(pool.subsystem, "cupy");
  EXPECT_EQ(pool.device, "cuda");
  EXPECT_EQ(pool.requested_bytes, int64_t{805306368});
  EXPECT_EQ(pool.reserved_bytes, int64_t{536870912});
  EXPECT_EQ(pool.allowed_bytes, int64_t{1073741824});
  const OomRecord no_limit =
      only("cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 1,024 bytes (allocated so far: 2,048 bytes).\n");
  EXPECT_EQ(no_limit.requested_bytes, int64_t{1024});
  EXPECT_FALSE(no_limit.allowed_bytes);
  // Thousands separators in jemalloc's and a program's counts: read whole.
  const OomRecord grouped = only("<jemalloc>: Error in malloc(): out of memory. Requested: 12,786,980,896, active: 64,869\n");
  EXPECT_EQ(grouped.requested_bytes, int64_t{12786980896});
  EXPECT_EQ(grouped.allocated_bytes, int64_t{64869});
  EXPECT_EQ(only("Failed attempt to allocate 1,073,741,824 bytes; you may not have enough free memory\n").requested_bytes,
            int64_t{1073741824});
  // Twenty digits: kept as INT64_MAX, flagged, never wrapped.
  const OomRecord huge = only("Out of memory allocating 99,999,999,999,999,999,999 bytes (allocated so far: 0 bytes).\n");
  EXPECT_TRUE(huge.size_overflow);
  EXPECT_EQ(huge.requested_bytes, std::numeric_limits<int64_t>::max());
}

// R's allocator (memory.c): "cannot allocate vector of size 3.2 Gb" prints bytes / 1024^3 with
// one decimal ("Gb" is binary); "vector memory exhausted (limit reached?)" carries no size.
// Ollama's check before loading a model (llm/server.go): requested and free host RAM, binary units.
TEST(OomParserFamilies, RAndOllamaHostMemory) {
  auto host = [](const std::string& text, const char* subsystem) {
    const OomRecord r = only(text);
    EXPECT_EQ(r.family, "host_alloc") << text;
    EXPECT_EQ(r.subsystem, subsystem) << text;
    EXPECT_EQ(r.device, "cpu") << text;
    return r;
  };
  const OomRecord v = host("Error: cannot allocate vector of size 3.2 Gb\n", "r");
  ASSERT_TRUE(v.requested_bytes);
  EXPECT_NEAR(static_cast<double>(*v.requested_bytes), 3.2 * 1073741824.0, 1.0);
  EXPECT_EQ(host("Error: cannot allocate vector of size 512.0 Mb\n", "r").requested_bytes, int64_t{512} << 20);
  EXPECT_FALSE(host("Error: vector memory exhausted (limit reached?)\n", "r").requested_bytes);
  // R in a Chinese locale, and a vector too long (a length, no size).
  const OomRecord zh = host("\xe9\x94\x99\xe8\xaf\xaf: \xe6\x97\xa0\xe6\xb3\x95\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xa7\xe5\xb0\x8f"
                            "\xe4\xb8\xba""8.9 Gb\xe7\x9a\x84\xe5\x90\x91\xe9\x87\x8f\n",  // 错误: 无法分配大小为8.9 Gb的向量
                            "r");
  ASSERT_TRUE(zh.requested_bytes);
  EXPECT_NEAR(static_cast<double>(*zh.requested_bytes), 8.9 * 1073741824.0, 1.0);
  EXPECT_FALSE(host("Error: cannot allocate vector of length 3000000000\n", "r").requested_bytes);
  // Another program's Chinese "cannot allocate a size of ..." (DuckDB's data, a buffer) is not R's.
  for (const char* other : {"\xe6\x97\xa0\xe6\xb3\x95\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xa7\xe5\xb0\x8f\xe4\xb8\xba 2.0 GiB "
                            "\xe7\x9a\x84\xe6\x95\xb0\xe6\x8d\xae\n"}) {  // 无法分配大小为 2.0 GiB 的数据
    for (const OomRecord& r : parse_oom_log(other)) EXPECT_NE(r.subsystem, "r") << other;
  }
  const OomRecord o = host("Error: model requires more system memory (18.5 GiB) than is available (12.1 GiB)\n", "ollama");
  ASSERT_TRUE(o.requested_bytes);
  EXPECT_NEAR(static_cast<double>(*o.requested_bytes), 18.5 * 1073741824.0, 1.0);
  ASSERT_TRUE(o.free_bytes);
  EXPECT_NEAR(static_cast<double>(*o.free_bytes), 12.1 * 1073741824.0, 0.06 * 1073741824.0);
}

// ONNX Runtime's BFC arena (bfc_arena.cc, AllocateRawInternal): the request in bytes; the device
// when the message names the CUDA provider's allocator, none otherwise. Not ggml's "failed to
// allocate <backend> buffer".
TEST(OomParserFamilies, OnnxRuntimeArena) {
  const OomRecord r = only(
      "onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero "
      "status code returned while running MatMul node. Name:'MatMul_123' Status Message: bfc_arena.cc:376 "
      "AllocateRawInternal Failed to allocate memory for requested buffer of size 2147483648\n");
  EXPECT_EQ(r.family, "device_alloc");
  EXPECT_EQ(r.subsystem, "onnxruntime");
  EXPECT_EQ(r.requested_bytes, int64_t{2147483648});
  EXPECT_EQ(r.device, "");
  const OomRecord c = only(
      "[E:onnxruntime:, sequential_executor.cc:494 ExecuteKernel] Non-zero status code returned while running Conv node. "
      "Status Message: /onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:376 void* onnxruntime::BFCArena::"
      "AllocateRawInternal(size_t, bool, onnxruntime::Stream*) Failed to allocate memory for requested buffer of size "
      "838860800 (CUDA)\n");
  EXPECT_EQ(c.requested_bytes, int64_t{838860800});
  EXPECT_EQ(c.device, "cuda");
}

// DuckDB's buffer manager (host RAM within its memory_limit): the block or data it could not
// allocate, and "(A/B used)" as allocated and the limit.
TEST(OomParserFamilies, DuckDbOutOfMemory) {
  const OomRecord a = only("Out of Memory Error: could not allocate block of 262144 bytes\n");
  EXPECT_EQ(a.family, "host_alloc");
  EXPECT_EQ(a.subsystem, "duckdb");
  EXPECT_EQ(a.requested_bytes, int64_t{262144});
  const OomRecord b = only(
      "duckdb.duckdb.OutOfMemoryException: Out of Memory Error: failed to allocate data of size 16.0 MiB (4.4 GiB/4.4 GiB "
      "used)\n");
  EXPECT_EQ(b.requested_bytes, int64_t{16} << 20);
  ASSERT_TRUE(b.allowed_bytes);
  EXPECT_NEAR(static_cast<double>(*b.allowed_bytes), 4.4 * 1073741824.0, 0.06 * 1073741824.0);
  EXPECT_TRUE(b.allocated_bytes);
}
