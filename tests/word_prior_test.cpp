// The word prior (include/oomkit/diagnose/word_prior.h) and how diagnose_log() weighs it.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/oom_record.h"
#include "oomkit/diagnose/word_prior.h"

using namespace oomkit;

namespace {

// Two causes told apart by their words; each word in two documents (df >= 2 keeps it).
std::vector<LabelledText> toy_corpus() {
  return {
      {"validation loop without no_grad, test images", OomCause::kEvalWithoutNoGrad},
      {"the validation loop keeps graphs, test script", OomCause::kEvalWithoutNoGrad},
      {"another process holds the card, nvidia smi shows python", OomCause::kOtherProcess},
      {"nvidia smi lists another process of a colleague", OomCause::kOtherProcess},
  };
}

}  // namespace

// The model embedded in the binary is the one the corpus trains: src/diagnose/word_prior_data.inc
// was generated from tests/data by scripts/build-word-prior.sh and not edited since, and no
// labelled report was added or relabelled without regenerating it.
TEST(WordPrior, BuiltinModelIsTheCorpusModel) {
  const auto docs = read_labelled_corpus(std::string(OOMKIT_SOURCE_DIR) + "/tests/data", word_prior_corpus_parts());
  EXPECT_GT(docs.size(), 300u);
  const std::string trained = WordPriorModel::train(docs).serialise();
  EXPECT_TRUE(trained == builtin_word_prior().serialise())
      << "src/diagnose/word_prior_data.inc is stale: run scripts/build-word-prior.sh";
}

TEST(WordPrior, RanksByTheWordsOfEachCause) {
  const auto m = WordPriorModel::train(toy_corpus());
  const auto eval = m.rank("OOM in my validation loop on test images");
  ASSERT_FALSE(eval.empty());
  EXPECT_EQ(eval.front().cause, OomCause::kEvalWithoutNoGrad);
  EXPECT_GT(eval.front().similarity, 0.5);
  EXPECT_LE(eval.front().similarity, 1.0 + 1e-9);
  EXPECT_EQ(eval.front().line, 1);
  const auto other = m.rank("first line\nnvidia-smi shows another process");
  ASSERT_FALSE(other.empty());
  EXPECT_EQ(other.front().cause, OomCause::kOtherProcess);
  EXPECT_EQ(other.front().line, 2);
  // Every cause scored, best first.
  EXPECT_EQ(other.size(), static_cast<size_t>(OomCause::kOther) + 1);
  for (size_t i = 1; i < other.size(); ++i) EXPECT_GE(other[i - 1].similarity, other[i].similarity);
}

// A log whose known words all lie on its messages' lines is not ranked; one known word elsewhere
// and every line is read.
TEST(WordPrior, WordsOnlyOnMessageLinesRankNothing) {
  const auto m = WordPriorModel::train(toy_corpus());
  EXPECT_TRUE(m.rank("validation loop\nnothing known here", {1}).empty());
  EXPECT_FALSE(m.rank("validation loop\nnothing known here", {2}).empty());
  EXPECT_TRUE(m.rank("").empty());
  EXPECT_TRUE(WordPriorModel().rank("validation loop").empty());
}

TEST(WordPrior, SerialiseParsesBackToTheSameModel) {
  const auto m = WordPriorModel::train(toy_corpus());
  const std::string text = m.serialise();
  EXPECT_EQ(WordPriorModel::parse(text).serialise(), text);
  EXPECT_EQ(text.rfind("oomkit-word-prior 1\n", 0), 0u);
}

TEST(WordPrior, MalformedModelIsRefusedNamingTheLine) {
  const std::string causes =
      "fragmentation activations_batch activations_seqlen static_model_too_large optimizer_state leak_across_steps "
      "eval_without_no_grad other_process multi_gpu_imbalance generation_kv_cache cpu_ram other\n";
  const std::string row = " 1 0 0 0 0 0 0 0 0 0 0 0 0\n";
  EXPECT_THROW(WordPriorModel::parse("not a model\n"), std::invalid_argument);
  EXPECT_THROW(WordPriorModel::parse("oomkit-word-prior 1\nfragmentation other\n"), std::invalid_argument);
  EXPECT_THROW(WordPriorModel::parse("oomkit-word-prior 1\n" + causes + "loop 1 0\n"), std::invalid_argument);
  try {
    WordPriorModel::parse("oomkit-word-prior 1\n" + causes + "zeta" + row + "alpha" + row);
    FAIL() << "unsorted words accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("line 4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(WordPriorModel::train({}), std::invalid_argument);
}

// Where no line decides, the words re-rank the candidates and may add one, with the words as its
// evidence; a message whose own numbers decide is left as the rules ranked it.
TEST(WordPrior, WeighsOnlyWhereNoLineDecides) {
  const auto m = WordPriorModel::train(toy_corpus());
  DiagnoseOptions with;
  with.word_prior = &m;
  const WordPriorModel none;
  DiagnoseOptions without;
  without.word_prior = &none;
  const std::string prose =
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n"
      "\n"
      "training is fine, it fails in the validation loop on the test images\n";
  const auto plain = diagnose_log(prose, without);
  const auto worded = diagnose_log(prose, with);
  ASSERT_EQ(plain.size(), 1u);
  ASSERT_EQ(worded.size(), 1u);
  ASSERT_FALSE(plain[0].findings.empty());
  ASSERT_LT(plain[0].findings.front().score, 0.45);
  EXPECT_NE(plain[0].findings.front().category, OomCause::kEvalWithoutNoGrad);
  EXPECT_EQ(worded[0].findings.front().category, OomCause::kEvalWithoutNoGrad);
  EXPECT_LT(worded[0].findings.front().score, 0.45);  // still a candidate, not a verdict
  EXPECT_TRUE(worded[0].ambiguous());
  bool cited = false;
  for (const auto& e : worded[0].findings.front().evidence) cited = cited || e.find("words resemble") != std::string::npos;
  EXPECT_TRUE(cited);
  ASSERT_FALSE(worded[0].deciding.empty());
  EXPECT_EQ(worded[0].deciding.front().line, 3);
  // The OOM killer's own record decides: the words change nothing.
  const std::string killed = "Out of memory: Killed process 4242 (python) total-vm:80000000kB, anon-rss:60000000kB\n"
                             "validation loop test images nvidia smi another process\n";
  EXPECT_EQ(diagnose_log(killed, with)[0].findings.front().category, OomCause::kCpuRam);
  // The message's own line is not read: a one-line message has no words to weigh.
  const std::string bare = "RuntimeError: CUDA error: out of memory (validation loop test images)\n";
  EXPECT_EQ(diagnose_log(bare, with)[0].findings.front().category, diagnose_log(bare, without)[0].findings.front().category);
}

// PaddlePaddle's allocator message: sizes in binary units; its own advice ("any other process
// using GPU 0") is not the user's evidence.
TEST(WordPrior, PaddleMessageIsReadAndItsAdviceIsNotEvidence) {
  const std::string log =
      "Out of memory error on GPU 0. Cannot allocate 6.933594GB memory on GPU 0, 5.726685GB memory has been allocated "
      "and available memory is only 726.750000MB.\n"
      "Please check whether there is any other process using GPU 0.\n"
      "1. If yes, please stop them, or start PaddlePaddle on another GPU.\n";
  const auto records = parse_oom_log(log);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].family, "paddle");
  ASSERT_TRUE(records[0].requested_bytes);
  EXPECT_NEAR(static_cast<double>(*records[0].requested_bytes), 6.933594 * 1073741824.0, 0.5e-6 * 1073741824.0);
  ASSERT_TRUE(records[0].free_bytes);
  EXPECT_EQ(*records[0].free_bytes, 762052608);  // 726.75 MiB
  ASSERT_TRUE(records[0].allocated_bytes);
  const WordPriorModel none;
  DiagnoseOptions options;
  options.word_prior = &none;
  EXPECT_NE(diagnose_log(log, options)[0].findings.front().category, OomCause::kOtherProcess);
  // Wrapped after its first sentence, the message is still Paddle's, with its sizes.
  const auto wrapped = parse_oom_log(
      "Out of memory error on GPU 0.\nCannot allocate 1.53GB memory on GPU 0, available memory is only 12.000000MB.\n");
  ASSERT_EQ(wrapped.size(), 1u);
  EXPECT_EQ(wrapped[0].family, "paddle");
  EXPECT_EQ(wrapped[0].free_bytes.value_or(0), 12 * 1048576);
  EXPECT_EQ(wrapped[0].text_lines, (std::vector<int64_t>{1, 2}));
}

// A report told in words only: "Got OOMs", "CUDA outofmemory", "CUDA memory issues" are reports.
TEST(WordPrior, ReportsToldInWordsAreFound) {
  for (const char* text : {"Got OOMs for these image encoders due to grads being computed\n",
                           "CUDA outofmemory error when I test one image\n",
                           "Memory issues during loss.backward() on every iteration\n",
                           "We observed extra GPU memory usage on rank 0\n",
                           "My training crashes with OutOfMemoryError after 3 epochs\n",
                           // More memory than it should, compared with something, or on the wrong GPU.
                           "The new optimizer uses more memory than SGD did\n",
                           "Disproportionate GPU memory usage with two workers\n",
                           "Why does DAdaptAdam have higher memory usage than Adam?\n"}) {
    EXPECT_EQ(diagnose_log(text).size(), 1u) << text;
  }
  // Ordinary text about memory is no report (each line was one before the review's narrowing).
  for (const char* text : {"peak memory 3.2 GiB, all good\n", "I keep getting an out of memory error on GPU 1\n" /* prose: below */,
                           "This is a question about memory usage\n", "Training runs without memory problems now\n",
                           "The RTX 4090 has higher memory bandwidth than the 3090.\n",
                           "Memory bandwidth is the bottleneck for decoding.\n", "See issue #123 for the memory layout.\n",
                           "we added extra RAM to the server\n", "There is no problem with RAM.\n",
                           "Memory usage is higher with fp32, as expected.\n", "\xe5\x86\x85\xe5\xad\x98\xe8\xae\xbf\xe9\x97\xae\xe5\xbc\x82\xe5\xb8\xb8\n",
                           "systemd-oomd is disabled on this host\n",
                           "fp32 uses more memory than bf16, as expected.\n",
                           // Status lines and savings are no reports.
                           "Allocated memory on GPU0: 2.13 GB\n", "Epoch 3: memory on gpu 0 = 5.2 GiB, loss 1.23\n",
                           "step 100 loss 2.1 | memory increase 0.0 MB\n",
                           "Using ZeRO-3 reduces memory usage on the main GPU\n"}) {
    const auto ds = diagnose_log(text);
    if (std::string(text).rfind("I keep getting", 0) == 0) {
      // The OOM named in words is a report, but a "mentioned" one, not PaddlePaddle's message.
      ASSERT_EQ(ds.size(), 1u);
      EXPECT_EQ(ds[0].oom->family, "mentioned");
      continue;
    }
    EXPECT_TRUE(ds.empty()) << text;
  }
}

// The message's own lines (its head, its continuation and its repeats, OomRecord::text_lines) do
// not rank a log alone; beside a line of the user's their words are read. A framework's printed
// advice is never read.
TEST(WordPrior, MessageLinesRankOnlyBesideOtherWordsAdviceIsNotRead) {
  const std::string message =
      "RuntimeError: CUDA out of memory. Tried to allocate 38.00 MiB (GPU 0; 10.76 GiB total capacity; 8.95 GiB already "
      "allocated; 17.06 MiB free; 9.61 GiB reserved in total by PyTorch)\n";
  const std::string log = "epoch 1\n" + message + "epoch 2\n" + message + "epoch 3\n" + message;
  const auto records = parse_oom_log(log);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].occurrences, 3);
  EXPECT_EQ(message_lines(records), (std::vector<int64_t>{2, 4, 6}));
  const auto m = WordPriorModel::train({{"reserved total pytorch allocated", OomCause::kFragmentation},
                                        {"reserved total pytorch capacity", OomCause::kFragmentation},
                                        {"paddlepaddle another stop them", OomCause::kOtherProcess},
                                        {"paddlepaddle another process", OomCause::kOtherProcess}});
  EXPECT_TRUE(m.rank(log, message_lines(records)).empty());
  EXPECT_FALSE(m.rank(log).empty());
  // A line of the user's naming another process: the message's words (fragmentation's) are read
  // beside it, and outweigh its one word.
  const std::string told = "another run\n" + message;
  const auto told_ranked = m.rank(told, message_lines(parse_oom_log(told)));
  ASSERT_FALSE(told_ranked.empty());
  EXPECT_EQ(told_ranked.front().cause, OomCause::kFragmentation);
  EXPECT_EQ(told_ranked.front().line, 2);
  EXPECT_TRUE(m.rank("1. If yes, please stop them, or start PaddlePaddle on another GPU.\n").empty());
}

// Beside a statement (a first finding resting on the user's sentences alone) the words order the
// runners-up: the statement keeps first place and its "medium" score, the words' cause joins the
// candidates with its words as evidence, and a runner-up the message's numbers raised keeps its
// score. A statement read from code (a loss summed into a running total) is not the user's
// account: the rules' ranking stands.
TEST(WordPrior, WordsOrderTheRunnersUpBesideAStatement) {
  // Words no rule reads, each in two documents of one cause.
  const auto model = WordPriorModel::train({
      {"zebra giraffe savanna", OomCause::kOtherProcess},
      {"zebra okapi savanna", OomCause::kOtherProcess},
      {"giraffe okapi", OomCause::kOtherProcess},
      {"harbour lighthouse", OomCause::kGenerationKvCache},
      {"harbour lighthouse ferry", OomCause::kGenerationKvCache},
  });
  DiagnoseOptions with;
  with.word_prior = &model;
  const std::string told =
      "My GPU memory keeps growing step after step until the run dies.\n"
      "harbour lighthouse ferry\n"
      "\n"
      "RuntimeError: CUDA error: out of memory\n";
  const auto d = diagnose_log(told, with);
  ASSERT_EQ(d.size(), 1u);
  const auto& f = d[0].findings;
  ASSERT_GE(f.size(), 2u);
  EXPECT_EQ(f[0].category, OomCause::kLeakAcrossSteps);
  EXPECT_STREQ(f[0].confidence(), "medium");
  bool words_cited = false;
  for (size_t i = 1; i < f.size() && i < 3; ++i) {
    if (f[i].category != OomCause::kGenerationKvCache) continue;
    for (const auto& e : f[i].evidence) words_cited = words_cited || e.find("words resemble") != std::string::npos;
    EXPECT_STREQ(f[i].confidence(), "low");
  }
  // generation_kv_cache, which no rule raised, joined the first three (session 34: the words'
  // cause was host RAM, which they no longer add beside a CUDA failure, weigh_word_prior())
  EXPECT_TRUE(words_cited);
  // PyTorch's tensors fill the device: the working set, from the message's numbers, keeps its score
  // when the words move it up.
  const auto batch_words = WordPriorModel::train({
      {"quay jetty", OomCause::kActivationsBatch},
      {"quay jetty pier", OomCause::kActivationsBatch},
      {"harbour lighthouse", OomCause::kCpuRam},
  });
  DiagnoseOptions with_batch_words;
  with_batch_words.word_prior = &batch_words;
  const std::string numbers =
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 11.00 GiB total capacity; 10.30 GiB "
      "already allocated; 20.00 MiB free; 10.50 GiB reserved in total by PyTorch)\n";
  const WordPriorModel none;
  DiagnoseOptions without;
  without.word_prior = &none;
  const auto plain = diagnose_log(numbers, without);
  const auto beside = diagnose_log("My GPU memory keeps growing step after step until the run dies.\n"
                                   "quay jetty pier\n\n" + numbers, with_batch_words);
  ASSERT_EQ(plain.size(), 1u);
  ASSERT_EQ(beside.size(), 1u);
  ASSERT_FALSE(plain[0].findings.empty());
  ASSERT_EQ(plain[0].findings.front().category, OomCause::kActivationsBatch);
  EXPECT_EQ(beside[0].findings.front().category, OomCause::kLeakAcrossSteps);
  ASSERT_GE(beside[0].findings.size(), 2u);
  EXPECT_EQ(beside[0].findings[1].category, OomCause::kActivationsBatch);
  EXPECT_DOUBLE_EQ(beside[0].findings[1].score, plain[0].findings.front().score);
  const std::string code =
      "for x, y in loader:\n"
      "    epoch_loss += criterion(net(x), y)\n"
      "harbour lighthouse ferry\n"
      "\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 11.00 GiB total capacity; 10.30 GiB "
      "already allocated; 20.00 MiB free; 10.50 GiB reserved in total by PyTorch)\n";
  const auto c = diagnose_log(code, with);
  ASSERT_EQ(c.size(), 1u);
  ASSERT_FALSE(c[0].findings.empty());
  EXPECT_EQ(c[0].findings.front().category, OomCause::kLeakAcrossSteps);
  for (const auto& g : c[0].findings) {
    for (const auto& e : g.evidence) EXPECT_EQ(e.find("words resemble"), std::string::npos) << e;
  }
}
