// The whole log as evidence: read_log_evidence() reads every line once and keeps its facts
// (traceback frames, logged settings, memory figures per step, statements, single words);
// context_at() turns the facts around one report into weighed Signals. Linear in the log: each
// line is lower-cased once and split into words looked up in one hash table; only lines with a
// known word are read further. No std::regex.
//
// The weight scale (added to a cause's score in classify.cpp, 0..0.95):
//   0.40-0.55  the traceback's phase (optimizer.step, from_pretrained/.to(), generate(),
//              evaluate(), a DataLoader worker) or an explicit statement ("fails at batch size 1",
//              memory growing step after step, memory figures rising over >= 4 steps)
//   0.15-0.35  logged settings (sequence length >= 4096, batch size 1), the last log line before
//              the OOM (model.eval(), "Loading checkpoint shards"), "other users' jobs"
//   <= 0.10    a single word ("evaluation", "generation", "NCCL", a GPU count): may order
//              candidates, never decides (two words of one kind count once)
#include <algorithm>
#include <array>
#include <map>
#include <bitset>
#include <cmath>
#include <cstdlib>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "log_text.h"
#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/playbook.h"
#include "oomkit/estimate/gpus.h"

namespace oomkit {

using namespace diagnose_detail;

namespace {

constexpr size_t kMaxLineChars = 2000;
constexpr int64_t kLinesBefore = 3000;  // statements and frames counted before a report
constexpr int64_t kLinesAfter = 300;    // ... and after it (prose pasted below the error)
constexpr int64_t kTracebackLines = 400; // a traceback belongs to the report within this distance
constexpr int64_t kStopLinesBefore = 10; // a scheduler's stop or a Ctrl-C explains a kill this close before it
constexpr int64_t kStopLinesAfter = 1;   // ... or a scheduler's banner printed right after it
constexpr size_t kCauseCount = static_cast<size_t>(OomCause::kOther) + 1;  // the causes, kOther last

// Word classes looked up per token.
enum Word : uint8_t {
  kWNone,
  kWEval,         // evaluation / inference words
  kWNoGrad,       // no_grad, inference_mode
  kWGenWord,      // "generation", "generating"
  kWLlmGen,       // max_new_tokens, past_key_values, kv_cache, beam_search, greedy_search
  kWMulti,        // torchrun, nccl, local_rank, world_size, dataparallel, ...
  kWLeak,         // leak, leaking
  kWGrow,         // grow, grows, growing, increasing, rising, rises, accumulates, creeping
  kWPer,          // each, every, iteration(s), epoch(s), step(s), batch(es)
  kWLoad,         // from_pretrained, load_state_dict, _apply, deserialize, load_checkpoint
  kWOptim,        // _single_tensor_adam, exp_avg, adamw, optimizer
  kWBackward,     // backward, run_backward
  kWAttention,    // attention, softmax, sdpa, baddbmm, attn
  kWDataLoader,   // dataloader, _worker_loop, num_workers
  kWRam,          // ram, swap, rss, dmesg
  kWOther,        // jupyter, kernel, users, occupied, shared, another
  kWFrag,         // fragmentation, expandable_segments, max_split_size_mb
  kWFramework,    // transformers, deepspeed, lightning, ... (see framework_of)
  kWSetting,      // batch_size, max_length, ... (see read_setting)
  kWLoss,         // loss, cross_entropy, compute_loss, lm_head, logits
  kWForward,      // forward
  kWStep,         // step, iter, iteration, epoch (memory figures per step)
  kWMem,          // mem, memory, allocated, reserved, max_memory_allocated
  kWNot,          // "not", "isn't", "wasn't", "no"
  kWShards,       // "shards" (Loading checkpoint shards), TGI's "ShardCannotStart"
  kWAfter,        // after, fine (runs fine for N epochs)
  kWLoadProse,    // before, loading, load, model
  kWTraining,     // training, test, during, only (inference-only statements)
  kWShapes,       // variable, varying, dynamic, lengths
  kWInputSize,    // sequence, resolution, length, tokens, image, super, picture, photo, video, audio, clip, frame, prompt, ...
  kWLlmName,      // llama, mistral, qwen, ... (an LLM)
  kWSave,         // save, saving, save_pretrained, save_checkpoint
  kWGraph,        // graph, detach, detached, attached (the autograd graph kept alive)
  kWShapeBug,     // shape, shapes, broadcast, broadcasting (a shape bug in words)
  kWRandom,       // random, randomly, intermittent, sporadic, occasionally, settings, again
  kWVisible,      // visible, cuda_visible_devices
  kWQuant,        // int4, int8, gptq, awq, nf4, bitsandbytes, gguf, qlora, load_in_4bit, load_in_8bit, bit ("4-bit"), fp8
  kWGpuName,      // gpu, card, rtx, gtx (a line that may state the GPU's size)
  kWDim,          // height, width (an image's size set by a flag or a setting)
  kWHostEngine,   // duckdb, sqlite, postgres, mysql, clickhouse, polars, pyspark, dask, xarray (data engines in host
                  // memory); joblib, sklearn, scikit (-learn) (host-only Python compute); circleci, travis, "github actions" (CI
                  // runners, no accelerator)
  kWAccel,        // cuda, cupy, cudf, cuml, tpu, npu, mps, rocm (an accelerator; "gpu" is kWGpuName, "vram" kWMem)
  kWKeptCue,      // persistent, onto, held, holding, holds, vae, unload, destroy, delete (readings by phrase)
  kWCap,          // capped, limited (a memory cap told: cap_told())
  kWPrevious,     // old, previous (an earlier run's objects kept: previous_kept())
  kWPointer,      // changed, replace, following, follows, below (a sentence pointing at code below: fix_shown_as_code())
  kWNoAutograd,   // onnxruntime, tensorrt, coreml, mlmodel, mlx, openvino, ncnn, tflite, ggml (runtimes without autograd)
  kWStop,         // cancelled, walltime, term_runlimit, timeout, keyboardinterrupt, oom_kill, killed (a job
                  // stopped, or killed for memory: job_stopped())
};

// kWHostEngine's words but "actions" (which names a CI runner only as "GitHub Actions").
constexpr std::string_view kHostEngineWords[] = {"duckdb", "sqlite", "sqlite3", "postgres", "postgresql", "mysql",
                                                 "clickhouse", "polars", "pyspark", "dask", "xarray", "pandas", "joblib", "sklearn", "scikit",
                                                 "circleci", "travis"};

const std::unordered_map<std::string_view, Word>& words() {
  static const std::unordered_map<std::string_view, Word> kWords = [] {
    std::unordered_map<std::string_view, Word> m = {
      {"eval", kWEval}, {"evaluate", kWEval}, {"evaluation", kWEval}, {"evaluating", kWEval}, {"validation", kWEval},
      {"validate", kWEval}, {"validating", kWEval}, {"val_loss", kWEval}, {"valid_loss", kWEval}, {"eval_loss", kWEval},
      {"inference", kWEval}, {"infer", kWEval}, {"inferencing", kWEval}, {"predict", kWEval}, {"prediction", kWEval}, {"prediction_step", kWEval},
      {"evaluation_loop", kWEval}, {"validation_step", kWEval}, {"test_step", kWEval}, {"predict_step", kWEval},
      {"volatile", kWEval}, {"item", kWLoss}, {"testing", kWEval}, {"demo", kWEval}, {"eval_step", kWEval}, {"_run_evaluation", kWEval},
      {"no_grad", kWNoGrad}, {"inference_mode", kWNoGrad},
      {"generation", kWGenWord}, {"generating", kWGenWord}, {"generate", kWGenWord},
      {"max_new_tokens", kWLlmGen}, {"past_key_values", kWLlmGen}, {"kv_cache", kWLlmGen}, {"beam_search", kWLlmGen},
      {"greedy_search", kWLlmGen}, {"_sample", kWLlmGen}, {"max_model_len", kWLlmGen}, {"gpu_memory_utilization", kWLlmGen},
      {"num_beams", kWLlmGen}, {"use_cache", kWLlmGen}, {"prefill", kWLlmGen},
      {"torchrun", kWMulti}, {"nccl", kWMulti}, {"local_rank", kWMulti}, {"world_size", kWMulti},
      {"dataparallel", kWMulti}, {"distributeddataparallel", kWMulti}, {"nproc_per_node", kWMulti},
      {"multi", kWMulti}, {"ddp", kWMulti}, {"ranks", kWMulti}, {"rank0", kWMulti}, {"rank1", kWMulti},
      {"leak", kWLeak}, {"leaks", kWLeak}, {"leaking", kWLeak}, {"leaked", kWLeak}, {"leakage", kWLeak},
      {"leakages", kWLeak}, {"increment", kWGrow}, {"incremental", kWGrow}, {"increments", kWGrow},
      {"grow", kWGrow}, {"grows", kWGrow}, {"growing", kWGrow}, {"grew", kWGrow}, {"increasing", kWGrow},
      {"increases", kWGrow}, {"increase", kWGrow}, {"increased", kWGrow}, {"rising", kWGrow}, {"rises", kWGrow},
      {"accumulates", kWGrow}, {"growth", kWGrow}, {"accumulating", kWGrow}, {"creep", kWGrow}, {"creeping", kWGrow}, {"creeps", kWGrow}, {"crept", kWGrow}, {"climbs", kWGrow}, {"climbing", kWGrow},
      {"each", kWPer}, {"every", kWPer}, {"iterations", kWPer}, {"epochs", kWPer}, {"batches", kWPer}, {"steps", kWPer},
      {"from_pretrained", kWLoad}, {"load_state_dict", kWLoad}, {"_apply", kWLoad}, {"_cuda_deserialize", kWLoad},
      {"deserialize", kWLoad}, {"load_checkpoint", kWLoad}, {"_load_from_state_dict", kWLoad}, {"load_model", kWLoad},
      {"_load_pretrained_model", kWLoad}, {"load_sharded_checkpoint", kWLoad}, {"to_empty", kWLoad},
      // Setting up the sharded model: DeepSpeed ZeRO 1/2 flattens each parameter group into one
      // 16-bit buffer in its optimizer's __init__ (stage_1_and_2.py), FSDP its FlatParameter.
      {"flatten_dense_tensors_aligned", kWLoad}, {"_create_fp16_partitions", kWLoad}, {"_init_flat_param", kWLoad},
      {"_init_flat_param_and_metadata", kWLoad},
      // PEFT's k-bit preparation: casts the model's non-quantized parameters to fp32 before training.
      {"prepare_model_for_kbit_training", kWLoad},
      // ONNX Runtime creating its session (InferenceSession.__init__): the model's initializers
      // placed on the device.
      {"_create_inference_session", kWLoad}, {"initialize_session", kWLoad},
      {"_single_tensor_adam", kWOptim}, {"_multi_tensor_adam", kWOptim}, {"_single_tensor_adamw", kWOptim},
      {"_multi_tensor_adamw", kWOptim}, {"exp_avg", kWOptim}, {"exp_avg_sq", kWOptim}, {"_init_group", kWOptim},
      {"optimizer_step", kWOptim}, {"fused_adam", kWOptim}, {"initialize_optimizer_states", kWOptim},
      {"_optimizer_step", kWOptim}, {"adam_step", kWOptim},
      {"backward", kWBackward}, {"run_backward", kWBackward}, {"_engine_run_backward", kWBackward},
      {"attention", kWAttention}, {"softmax", kWAttention}, {"scaled_dot_product_attention", kWAttention},
      {"baddbmm", kWAttention}, {"attn", kWAttention}, {"self_attn", kWAttention}, {"flash_attn", kWAttention},
      {"_attn", kWAttention}, {"attn_weights", kWAttention},
      {"dataloader", kWDataLoader}, {"_worker_loop", kWDataLoader}, {"num_workers", kWDataLoader},
      {"ram", kWRam}, {"swap", kWRam}, {"rss", kWRam}, {"dmesg", kWRam}, {"oom_killer", kWRam},
      {"jupyter", kWOther}, {"users", kWOther}, {"occupied", kWOther}, {"shared", kWOther}, {"another", kWOther},
      {"zombie", kWOther}, {"released", kWOther}, {"freed", kWOther}, {"orphaned", kWOther},
      {"fragmentation", kWFrag}, {"fragmented", kWFrag}, {"fragment", kWFrag}, {"fragments", kWFrag},
      {"expandable_segments", kWFrag}, {"max_split_size_mb", kWFrag}, {"cuda_malloc_async", kWFrag},
      {"transformers", kWFramework}, {"deepspeed", kWFramework}, {"lightning", kWFramework},
      {"pytorch_lightning", kWFramework}, {"fsdp", kWFramework}, {"fullyshardeddataparallel", kWFramework},
      {"jax", kWFramework}, {"jaxlib", kWFramework}, {"flax", kWFramework}, {"tensorflow", kWFramework},
      {"keras", kWFramework}, {"tf", kWFramework}, {"tfjs", kWFramework}, {"resourceexhaustederror", kWFramework},
      {"paddle", kWFramework}, {"paddlepaddle", kWFramework}, {"megengine", kWFramework}, {"caffe", kWFramework}, {"pycaffe", kWFramework},
      {"prototxt", kWFramework}, {"caffemodel", kWFramework}, {"mxnet", kWFramework}, {"gluoncv", kWFramework},
      {"darknet", kWFramework}, {"dark_cuda", kWFramework},
      {"gluonnlp", kWFramework}, {"use_cudnn", kWFramework}, {"cudnnconvolution", kWFramework},
      {"cudnn_conv_layer", kWFramework}, {"vllm", kWFramework}, {"oomkit", kWFramework}, {"accelerate", kWFramework},
      {"accelerator", kWFramework}, {"trainer", kWFramework}, {"torch", kWFramework}, {"pytorch", kWFramework},
      {"batch_size", kWSetting}, {"per_device_train_batch_size", kWSetting}, {"train_batch_size", kWSetting},
      {"micro_batch_size", kWSetting}, {"train_micro_batch_size_per_gpu", kWSetting}, {"bs", kWSetting},
      {"batch", kWSetting}, {"max_length", kWSetting}, {"max_seq_length", kWSetting}, {"seq_len", kWSetting},
      {"seq_length", kWSetting}, {"sequence_length", kWSetting}, {"block_size", kWSetting}, {"max_len", kWSetting},
      {"cutoff_len", kWSetting}, {"context_length", kWSetting}, {"model_max_length", kWSetting},
      {"max_source_length", kWSetting}, {"num_gpus", kWSetting}, {"nprocs", kWSetting}, {"num_processes", kWSetting}, {"model_parallel_size", kWSetting}, {"n_gpu", kWSetting}, {"gpus", kWSetting},
      {"tensor_parallel_size", kWSetting}, {"tp_size", kWSetting},
      {"model_name_or_path", kWSetting}, {"model_name", kWSetting}, {"model_id", kWSetting},
      {"loss", kWLoss}, {"cross_entropy", kWLoss}, {"compute_loss", kWLoss}, {"lm_head", kWLoss}, {"logits", kWLoss},
      {"forward", kWForward},
      {"step", kWStep}, {"iter", kWStep}, {"iteration", kWStep}, {"epoch", kWStep}, {"it", kWStep},
      {"mem", kWMem}, {"memory", kWMem}, {"allocated", kWMem}, {"reserved", kWMem}, {"max_memory_allocated", kWMem},
      {"gpu_mem", kWMem}, {"mem_gb", kWMem}, {"memory_allocated", kWMem},
      {"not", kWNot}, {"isn", kWNot}, {"wasn", kWNot}, {"doesn", kWNot},
      {"shards", kWShards}, {"shardcannotstart", kWShards},
      {"after", kWAfter}, {"fine", kWAfter},
      {"before", kWLoadProse}, {"loading", kWLoadProse}, {"load", kWLoadProse}, {"model", kWLoadProse},
      {"training", kWTraining}, {"test", kWTraining}, {"during", kWTraining}, {"only", kWTraining}, {"when", kWTraining},
      {"variable", kWShapes}, {"varying", kWShapes}, {"dynamic", kWShapes}, {"lengths", kWShapes},
      {"other", kWOther}, {"jobs", kWOther}, {"job", kWOther}, {"stale", kWOther}, {"use", kWOther}, {"program", kWOther},
      {"kv", kWLlmGen}, {"host", kWRam},
      {"sequence", kWInputSize}, {"resolution", kWInputSize}, {"length", kWInputSize}, {"tokens", kWInputSize},
      {"image", kWInputSize}, {"super", kWInputSize},
      {"llama", kWLlmName}, {"mistral", kWLlmName}, {"mixtral", kWLlmName}, {"qwen", kWLlmName}, {"falcon", kWLlmName},
      {"vicuna", kWLlmName}, {"chatglm", kWLlmName}, {"baichuan", kWLlmName}, {"gemma", kWLlmName}, {"bloom", kWLlmName},
      {"llm", kWLlmName}, {"gptj", kWLlmName}, {"neox", kWLlmName}, {"alpaca", kWLlmName},
      {"codellama", kWLlmName}, {"yi", kWLlmName}, {"deepseek", kWLlmName}, {"starcoder", kWLlmName},
      {"internlm", kWLlmName}, {"mpt", kWLlmName}, {"pythia", kWLlmName}, {"olmo", kWLlmName}, {"stablelm", kWLlmName},
      {"save", kWSave}, {"saving", kWSave}, {"save_pretrained", kWSave}, {"save_checkpoint", kWSave}, {"save_model", kWSave},
      {"save_steps", kWSave}, {"_save", kWSave}, {"save_state", kWSave},
      {"sequences", kWInputSize}, {"images", kWInputSize}, {"vram", kWMem}, {"memories", kWMem},
      {"picture", kWInputSize}, {"pictures", kWInputSize}, {"photo", kWInputSize}, {"photos", kWInputSize},
      {"frames", kWInputSize}, {"video", kWInputSize}, {"videos", kWInputSize}, {"audio", kWInputSize},
      {"utterance", kWInputSize}, {"utterances", kWInputSize}, {"clip", kWInputSize}, {"clips", kWInputSize},
      {"frame", kWInputSize}, {"sentence", kWInputSize}, {"sentences", kWInputSize}, {"document", kWInputSize},
      {"documents", kWInputSize}, {"prompt", kWInputSize}, {"prompts", kWInputSize}, {"scene", kWInputSize},
      {"scenes", kWInputSize}, {"audios", kWInputSize},
      {"graph", kWGraph}, {"graphs", kWGraph}, {"detach", kWGraph}, {"detached", kWGraph}, {"attached", kWGraph},
      {"shape", kWShapeBug}, {"shapes", kWShapeBug}, {"broadcast", kWShapeBug}, {"broadcasting", kWShapeBug},
      {"random", kWRandom}, {"randomly", kWRandom}, {"intermittent", kWRandom}, {"intermittently", kWRandom},
      {"sporadic", kWRandom}, {"sporadically", kWRandom}, {"occasionally", kWRandom}, {"settings", kWRandom},
      {"again", kWRandom},
      {"visible", kWVisible}, {"cuda_visible_devices", kWVisible},
      {"int4", kWQuant}, {"int8", kWQuant}, {"gptq", kWQuant}, {"awq", kWQuant}, {"nf4", kWQuant},
      {"bitsandbytes", kWQuant}, {"gguf", kWQuant}, {"qlora", kWQuant}, {"load_in_4bit", kWQuant},
      {"load_in_8bit", kWQuant}, {"bit", kWQuant}, {"fp8", kWQuant}, {"float8_e4m3fn", kWQuant},
      {"height", kWDim}, {"width", kWDim}, {"max_h", kWDim}, {"max_w", kWDim}, {"img_h", kWDim}, {"img_w", kWDim},
      {"img_height", kWDim}, {"img_width", kWDim}, {"image_height", kWDim}, {"image_width", kWDim},
      {"duckdb", kWHostEngine}, {"sqlite", kWHostEngine}, {"sqlite3", kWHostEngine}, {"postgres", kWHostEngine},
      {"postgresql", kWHostEngine}, {"mysql", kWHostEngine}, {"clickhouse", kWHostEngine}, {"polars", kWHostEngine},
      {"pyspark", kWHostEngine}, {"dask", kWHostEngine}, {"xarray", kWHostEngine},
      {"pandas", kWHostEngine},  // pandas' frames in a traceback ("site-packages/pandas/io/parsers/readers.py")
      // Python compute that runs only on the host: joblib's worker pools, scikit-learn.
      {"joblib", kWHostEngine}, {"sklearn", kWHostEngine}, {"scikit", kWHostEngine},
      // A CI runner (host memory only): GitHub Actions (as that phrase: statement()), CircleCI, Travis CI.
      {"actions", kWHostEngine}, {"circleci", kWHostEngine}, {"travis", kWHostEngine},
      {"cuda", kWAccel}, {"cupy", kWAccel}, {"cudf", kWAccel}, {"cuml", kWAccel},
      {"tpu", kWAccel}, {"npu", kWAccel}, {"mps", kWAccel}, {"rocm", kWAccel},
      {"dask_cudf", kWAccel}, {"dask_cuda", kWAccel}, {"localcudacluster", kWAccel},  // Dask on GPUs (RAPIDS)
      {"persistent", kWKeptCue}, {"onto", kWKeptCue}, {"held", kWKeptCue}, {"holding", kWKeptCue},
      {"holds", kWKeptCue}, {"hold", kWKeptCue}, {"vae", kWKeptCue}, {"unload", kWKeptCue}, {"destroy", kWKeptCue},
      {"delete", kWKeptCue}, {"enable_vae_tiling", kWKeptCue}, {"vae_tiling", kWKeptCue}, {"vae_decode", kWKeptCue},
      {"capped", kWCap}, {"limited", kWCap}, {"old", kWPrevious}, {"previous", kWPrevious},
      {"changed", kWPointer}, {"change", kWPointer}, {"replace", kWPointer}, {"replaced", kWPointer},
      {"following", kWPointer}, {"followin", kWPointer}, {"follows", kWPointer}, {"below", kWPointer},
      {"onnxruntime", kWNoAutograd}, {"tensorrt", kWNoAutograd}, {"coreml", kWNoAutograd}, {"mlmodel", kWNoAutograd},
      {"mlx", kWNoAutograd}, {"mlx_lm", kWNoAutograd}, {"openvino", kWNoAutograd}, {"ncnn", kWNoAutograd}, {"tflite", kWNoAutograd},
      {"ggml", kWNoAutograd}, {"ollama", kWNoAutograd},
      {"cancelled", kWStop}, {"canceled", kWStop}, {"walltime", kWStop}, {"term_runlimit", kWStop},
      {"timeout", kWStop}, {"keyboardinterrupt", kWStop}, {"oom", kWStop}, {"oom_kill", kWStop},
      {"out_of_memory", kWStop}, {"oomkilled", kWStop}, {"exceeded", kWStop}, {"killed", kWStop},
      {"gpu", kWGpuName}, {"gpu0", kWGpuName}, {"card", kWGpuName}, {"rtx", kWGpuName}, {"gtx", kWGpuName},
    };
    // GPUs by their model names ("8 A100-40Gs", "an H100 80GB"); a card's number alone ("3090")
    // is not a GPU word.
    for (const GpuModelName& g : gpu_model_names()) {
      if (!is_digit(g.word[0])) m.emplace(g.word, kWGpuName);
    }
    return m;
  }();
  return kWords;
}

bool word_char(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

// Calls `f(i, j)` for each token lo[i, j) of word characters (word_char()), in order, while it
// returns true.
template <class F>
void for_each_token(std::string_view lo, F&& f) {
  for (size_t i = 0; i < lo.size();) {
    if (!word_char(lo[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < lo.size() && word_char(lo[j])) ++j;
    if (!f(i, j)) return;
    i = j;
  }
}


// An LLM's name with its version glued on: "llama3", "llama2", "qwen2", "gemma2", "mistral7b".
constexpr std::string_view kLlmFamilies[] = {"llama", "qwen",    "mistral", "mixtral", "gemma",    "falcon", "baichuan",
                                              "chatglm", "vicuna", "phi",     "deepseek", "internlm", "yi",
                                              "mpt",     "pythia", "olmo"};

bool is_llm_with_version(std::string_view w) {
  for (std::string_view name : kLlmFamilies) {
    if (w.size() > name.size() && w.substr(0, name.size()) == name && is_digit(w[name.size()])) return true;
  }
  return false;
}

// An LLM's name as the part after an underscore of a compound name, the model built on it
// ("minigpt4_llama2", "BLIVA_Vicuna 7B"): a family of kLlmFamilies with its version glued on, or whole
// with a size in billions right after the compound (`after`: the text that follows it, " 7B"); a
// bare family alone names a project as often ("dfc_llama"). Not a part under four letters ("phi",
// "yi", "mpt": parts of other words' compounds).
bool llm_in_compound(std::string_view w, std::string_view after) {
  size_t k = 0;
  while (k < after.size() && k < 2 && (after[k] == ' ' || after[k] == '-')) ++k;
  size_t d = k;
  while (d < after.size() && (is_digit(after[d]) || after[d] == '.')) ++d;
  const bool sized = d > k && d < after.size() && after[d] == 'b' && (d + 1 == after.size() || !word_char(after[d + 1]));
  for (size_t u = w.find('_'); u != std::string_view::npos; u = w.find('_', u + 1)) {
    std::string_view part = w.substr(u + 1);
    part = part.substr(0, part.find('_'));
    if (part.size() < 4) continue;
    if (is_llm_with_version(part)) return true;
    for (std::string_view name : kLlmFamilies) {
      if (sized && name.size() >= 4 && part == name) return true;
    }
  }
  return false;
}

// A sequence-length setting beyond words()'s list: any word holding "seq_len" (max_seq_len,
// max_calib_seq_len, seq_length), or max_<what>_len / max_<what>_length / <what>_max_len /
// <what>_max_length where <what> is tokens or text (max_token_len, max_input_length,
// max_prompt_length, max_target_length, passage_max_len, query_max_len; not max_queue_len,
// max_path_len, max_label_len).
// A protein structure model by name, as a word or its prefix ("alphafold2", "openfold",
// "rosettafold2na", "esmfold", "localcolabfold", "boltz"): models whose pair representation is
// N x N over the residues (Jumper et al. 2021, AlphaFold 2, section 1.6: the Evoformer's pair
// stack), so the input's length is what scales their activations.
bool structure_model_word(std::string_view w) {
  // (Every name below holds "fold" or starts with 'b': a word that does neither is none of them.)
  if (w.size() < 5 || (w[0] != 'b' && w.find("fold") == std::string_view::npos)) return false;
  for (std::string_view m : {"alphafold", "openfold", "rosettafold", "esmfold", "colabfold", "localcolabfold", "unifold",
                             "helixfold", "omegafold", "fastfold", "boltz"}) {
    if (w.substr(0, m.size()) == m) return true;
  }
  return false;
}

// Whether the token lo[i, j) of the lower-cased line names an image-generation application or
// pipeline ("sdxl", "comfyui", "fooocus", "controlnet", "invokeai", "txt2img", "img2img", "deepfloyd",
// "kandinsky", diffusers' pipeline classes "stablediffusionpipeline", "fluxpipeline", "Stable
// Diffusion" in two words, "stable-diffusion-webui", "stable_diffusion"): a latent diffusion UNet or
// DiT generating one image at a time, whose self-attention runs over the latent's positions (Rombach
// et al. 2022, Latent Diffusion, section 3.3; 64 x 64 = 4096 tokens at 512 px), so at inference the
// image's resolution is what scales its activations, not a batch. Not a package's name or pin,
// "controlnet==1.1", "controlnet-aux 0.0.7": a package installed, not the program run.
bool image_generation_named(std::string_view lo, size_t i, size_t j) {
  const std::string_view w = lo.substr(i, j - i);
  if (w == "stable") {
    return j + 10 <= lo.size() && (lo[j] == ' ' || lo[j] == '-') && lo.substr(j + 1, 9) == "diffusion";
  }
  if (w.size() < 4 || (j < lo.size() && (lo[j] == '=' || (lo[j] == '-' && j + 1 < lo.size() && is_alpha(lo[j + 1]))))) {
    return false;
  }
  for (std::string_view m : {"sdxl", "comfyui", "fooocus", "controlnet", "invokeai", "txt2img", "img2img", "deepfloyd",
                             "kandinsky", "automatic1111", "stablediffusionpipeline", "stablediffusionxlpipeline",
                             "fluxpipeline", "stablediffusion3pipeline", "stable_diffusion"}) {
    if (w == m) return true;
  }
  return false;
}

bool seq_setting_word(std::string_view w) {
  if (w.size() > 40) return false;
  if (w.find("seq_len") != std::string_view::npos) return true;
  std::string_view mid;
  if (w.rfind("max_", 0) == 0) {
    mid = w.substr(4);
    if (mid.size() > 4 && mid.substr(mid.size() - 4) == "_len") mid.remove_suffix(4);
    else if (mid.size() > 7 && mid.substr(mid.size() - 7) == "_length") mid.remove_suffix(7);
    else return false;
  } else if (const size_t m = w.find("_max_len"); m != std::string_view::npos && m > 0 &&
             (w.size() == m + 8 || w.substr(m + 8) == "gth")) {
    mid = w.substr(0, m);  // <what>_max_len / <what>_max_length (FlagEmbedding's passage_max_len, query_max_len)
  } else {
    return false;
  }
  // What is long: tokens or text (not max_queue_len, max_path_len, max_label_len).
  for (std::string_view t : {"token", "tokens", "input", "prompt", "target", "source", "src", "tgt", "text", "sentence",
                             "context", "sequence", "model", "total", "output", "answer", "question", "doc", "document",
                             "position", "calib", "audio", "utterance", "passage", "query"}) {
    if (mid == t || (mid.size() > t.size() && mid.substr(mid.size() - t.size()) == t && mid[mid.size() - t.size() - 1] == '_')) {
      return true;
    }
  }
  return false;
}

// Whether the word lo[i, j) is one part of a hyphen-joined name ("oasst-sft-4-pythia-12b-epoch-3.5",
// "llama-2-7b-sft"): a hyphen right before or after it and a digit elsewhere in the same name
// (a model's name carries its size or version; "fine-tune", "pre-training" or "sft-qlora.json"
// carry none).
bool in_hyphenated_name(std::string_view lo, size_t i, size_t j) {
  const bool hyphen = (i > 0 && lo[i - 1] == '-') || (j < lo.size() && lo[j] == '-');
  if (!hyphen) return false;
  // The name: the run of letters, digits, '-', '.' and '_' around the word (a path's '/', a space
  // or a CJK character ends it).
  auto name_char = [](char c) { return word_char(c) || c == '-' || c == '.'; };
  size_t b = i, e = j;
  while (b > 0 && name_char(lo[b - 1])) --b;
  while (e < lo.size() && name_char(lo[e])) ++e;
  auto digit_in = [&](size_t from, size_t to) { return std::any_of(lo.begin() + from, lo.begin() + to, is_digit); };
  return digit_in(b, i) || digit_in(j, e);
}

// A word that tells training: the verb and its nouns ("train", "fine-tuning", "pretraining"; not
// "pretrained", a model loaded), an optimizer or trainer, or a training batch setting
// ("per_device_train_batch_size", "train_micro_batch_size_per_gpu", "device_train_microbatch_size").
bool is_training_word(std::string_view w) {
  for (std::string_view t : {"train", "training", "finetune", "finetuning", "tune", "tuning", "epoch", "epochs", "backward", "optimizer",
                             "lora", "sft", "trainer", "train_dreambooth", "fit", "pretrain", "pretraining"}) {
    if (w == t) return true;
  }
  return w.size() > 10 && w.find("train") != std::string_view::npos && w.find("batch") != std::string_view::npos &&
         w.find("pretrained") == std::string_view::npos;
}

// Training told in Chinese: 训练 (training) or 微调 (fine-tuning), not 预训练 (pre-trained: "加载预训练模型"
// loads one), 训练好 / 训练后 / 微调后 / 微调好 (an already trained model, "用训练好的模型推理").
bool zh_training(std::string_view lo) {
  constexpr std::string_view kTrain = "\xe8\xae\xad\xe7\xbb\x83";  // 训练
  constexpr std::string_view kTune = "\xe5\xbe\xae\xe8\xb0\x83";   // 微调
  constexpr std::string_view kPre = "\xe9\xa2\x84";                   // 预
  constexpr std::string_view kDone = "\xe5\xa5\xbd";                  // 好
  constexpr std::string_view kAfter = "\xe5\x90\x8e";                 // 后
  constexpr std::string_view kSet = "\xe9\x9b\x86";     // 集 (训练集: the training set)
  constexpr std::string_view kData = "\xe6\x95\xb0";    // 数 (训练数据: the training data)
  constexpr std::string_view kSample = "\xe6\xa0\xb7";  // 样 (训练样本: training samples)
  for (std::string_view w : {kTrain, kTune}) {
    for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
      const bool pre = w == kTrain && p >= kPre.size() && lo.compare(p - kPre.size(), kPre.size(), kPre) == 0;
      const std::string_view next = lo.substr(p + w.size(), 3);
      // Denied just before: 没有训练 / 不做训练 / 不训练 / 无训练 (no training).
      const std::string_view before = lo.substr(p >= 9 ? p - 9 : 0, p >= 9 ? 9 : p);
      const size_t no = before.find("\xe4\xb8\x8d");  // 不, not 不断 (continually: "不断训练")
      const bool denied = before.find("\xe6\xb2\xa1") != std::string_view::npos ||  // 没
                          before.find("\xe6\x97\xa0") != std::string_view::npos ||  // 无
                          (no != std::string_view::npos && before.compare(no + 3, 3, "\xe6\x96\xad") != 0);
      if (!pre && !denied && next != kDone && next != kAfter && next != kSet && next != kData && next != kSample) return true;
    }
  }
  return false;
}

// Each growth verb on the lower-cased line `lo` ("increase", "increased", "increasing", "grow",
// "grew", "growing", "raise", "raised", "raising") takes an object that is not memory: an article or
// possessive and then, within 40 characters, no memory noun ("increasing the number of nodes",
// "increased my batch size to 64"; not "increasing the memory", "memory keeps increasing"). False
// when the line has no such verb.
bool growth_words_have_other_objects(std::string_view lo) {
  // The intransitive growth words tell memory growing whatever else the line raised.
  for (std::string_view w : {"grows", "increases", "rising", "rises", "accumulates", "growth", "accumulating", "creeping",
                             "climbs", "climbing"}) {
    if (contains_word(lo, w)) return false;
  }
  bool any = false;
  for (std::string_view v : {"increase", "increased", "increasing", "grow", "grew", "growing", "raise", "raised", "raising"}) {
    for (size_t p = lo.find(v); p != std::string_view::npos; p = lo.find(v, p + 1)) {
      if (!is_word_at(lo, p, v.size())) continue;
      any = true;
      size_t q = p + v.size();
      while (q < lo.size() && lo[q] == ' ') ++q;
      bool object = false;
      for (std::string_view a : {"the ", "my ", "our ", "a ", "its ", "their ", "this "}) {
        if (lo.compare(q, a.size(), a) == 0) {
          object = true;
          q += a.size();
          break;
        }
      }
      if (!object) return false;
      // The object's first words (up to 40 characters): memory named there is memory growing.
      const std::string_view obj = lo.substr(q, 40);
      for (std::string_view m : {"memory", "ram", "vram", "usage", "footprint", "rss", "allocat", "cache"}) {
        if (obj.find(m) != std::string_view::npos) return false;
      }
    }
  }
  return any;
}

// The first characters of the known words: most tokens of a log are rejected by one lookup.
const std::array<bool, 256>& first_chars() {
  static const std::array<bool, 256> kFirst = [] {
    std::array<bool, 256> t{};
    for (const auto& [w, kind] : words()) t[static_cast<unsigned char>(w[0])] = true;
    return t;
  }();
  return kFirst;
}

// Who told a statement (Fact::prose): by default the line decides (a sentence is the user's
// account, code is not: code_line()); a rule that reads a program's output (PyTorch's imbalance
// warning, "Loading checkpoint shards", TensorFlow's device lines) says kPrinted; one whose
// reading is the user's inference wherever it is read ("fails even at batch size 1") kAccount.
enum class Told : uint8_t { kByLine, kAccount, kPrinted };

// Whether a lowercased log line is code or a command rather than a sentence: a prompt (">>> ",
// "$ "), a decorator ("@torch.no_grad()", one token), or fewer than five plain words with a call,
// an assignment or an index ("epoch_loss += criterion(net(x), y)", "output = lm.generate(prompt)")
// or a block opened by a keyword ("for x, y in loader:"). Not "I already call loss.item() for
// logging, yet memory keeps growing", "If I lower the batch size, memory still grows", "@maintainer
// it still fails"; a trailing comment after two spaces and '#' is left out; two CJK characters
// count as one plain word ("加了 torch.cuda.empty_cache() 之后就不爆显存了" is a sentence).
bool code_line(std::string_view lo) {
  size_t b = 0;
  while (b < lo.size() && (lo[b] == ' ' || lo[b] == '\t')) ++b;
  std::string_view t = lo.substr(b);
  // A trailing comment is not prose: "x = f(y)   # whole tensor -> host RAM" is read before its '#'.
  const size_t comment = t.find("  #");
  if (comment != std::string_view::npos) t = t.substr(0, comment);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
  if (t.rfind(">>> ", 0) == 0 || t.rfind("$ ", 0) == 0) return true;
  if (!t.empty() && t.front() == '@' && t.find(' ') == std::string_view::npos) return true;
  bool block = false;
  if (!t.empty() && t.back() == ':') {
    for (std::string_view k : {"def ", "for ", "with ", "if ", "elif ", "while ", "class ", "try", "else"}) {
      block = block || t.rfind(k, 0) == 0;
    }
  }
  int plain_words = 0;
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && t[i] == ' ') ++i;
    size_t e = i;
    while (e < t.size() && t[e] != ' ') ++e;
    std::string_view tok = t.substr(i, e - i);
    while (!tok.empty() && (tok.back() == ',' || tok.back() == '.' || tok.back() == ';' || tok.back() == ':' ||
                            tok.back() == '!' || tok.back() == '?')) {
      tok.remove_suffix(1);
    }
    plain_words += tok.size() >= 2 && std::all_of(tok.begin(), tok.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    // CJK prose: two characters (three bytes each, a lead byte 0xE0-0xEF; also full-width
    // punctuation, arrows and dashes) count as a word.
    plain_words += static_cast<int>(std::count_if(tok.begin(), tok.end(), [](char c) {
                     return (static_cast<unsigned char>(c) & 0xF0u) == 0xE0u;
                   })) / 2;
    i = e;
  }
  return plain_words < 5 && (block || t.find_first_of("(=[") != std::string_view::npos);
}

// A sentence around a piece of code, which code_line() reads as code for its few plain words
// ("Removing torch.cuda.set_per_process_memory_fraction(0.8) fixed the OOM.", "Setting
// os.environ['PYTORCH_CUDA_ALLOC_CONF'] = 'expandable_segments:True' fixed it."): `raw` opens with a
// capitalised word of three or more letters and nothing else, or with "I" or "We" ("I set
// torch.cuda.set_per_process_memory_fraction(0.5) and it fixed the OOM."), then a blank, and ends
// with '.' or '!' (trailing blanks aside), as no Python, shell or C++ line does.
static bool sentence_around_code(std::string_view raw) {
  size_t b = 0;
  while (b < raw.size() && (raw[b] == ' ' || raw[b] == '\t')) ++b;
  size_t e = b;
  while (e < raw.size() && ((raw[e] >= 'a' && raw[e] <= 'z') || (raw[e] >= 'A' && raw[e] <= 'Z'))) ++e;
  const std::string_view first = raw.substr(b, e - b);
  const bool pronoun = first == "I" || first == "We";
  if ((e - b < 3 && !pronoun) || !(raw[b] >= 'A' && raw[b] <= 'Z') || e >= raw.size() || raw[e] != ' ') return false;
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\r')) raw.remove_suffix(1);
  return !raw.empty() && (raw.back() == '.' || raw.back() == '!');
}

// The adjacent character pairs of a line (pair_bit(), 4096 bits in all): "cannot contain" for a
// phrase whose first, middle or last pair is absent, in three bit tests instead of a scan of the
// line. False positives only cost the scan they would have cost anyway.
class CharPairs {
 public:
  void assign(std::string_view s) {
    bits_.fill(0);
    for (size_t i = 0; i + 1 < s.size(); ++i) set(s[i], s[i + 1]);
  }
  bool may_contain(std::string_view phrase) const {
    if (phrase.size() < 2) return true;
    const size_t n = phrase.size(), m = n / 2;
    return test(phrase[0], phrase[1]) && test(phrase[n - 2], phrase[n - 1]) && test(phrase[m - 1], phrase[m]);
  }

 private:
  static size_t slot(char a, char b) { return pair_bit(a, b); }
  void set(char a, char b) { bits_[slot(a, b) >> 6] |= uint64_t{1} << (slot(a, b) & 63u); }
  bool test(char a, char b) const { return (bits_[slot(a, b) >> 6] >> (slot(a, b) & 63u)) & 1u; }
  std::array<uint64_t, 64> bits_{};
};

enum class FactKind : uint8_t {
  kFrame,         // a traceback frame (its function) or the code line under it
  kTracebackStart,
  kStatement,     // a prose/log line with weighed content
  kSetting,
};

struct Fact {
  int64_t line = 0;
  FactKind kind = FactKind::kStatement;
  OomCause cause = OomCause::kOther;
  double weight = 0.0;
  std::string what;
  char phase = 0;        // kFrame: 'l' load, 'I' a TensorFlow variable's initializer, 'f' forward, 'L' loss, 'b' backward, 'o' optimizer, 'e' eval, 'g' generate, 'd' dataloader, 'a' attention
  bool prose = false;    // kStatement: read from the user's sentences (Signal::prose)
  int32_t process = -1;  // the process its line's launcher prefix names (launcher_prefix()); -1: none (fills padding)
};

}  // namespace

struct LogEvidence {
  std::vector<Fact> facts;                       // in line order
  struct StepMem {
    int64_t line = 0, step = 0, bytes = 0;
  };
  std::vector<StepMem> step_mem;  // a step's memory figure, in line order (one a line at most: a training log's every step)
  struct ProcessRun {
    int64_t first = 0, last = 0;  // lines
    int64_t process = -1;
  };
  std::vector<ProcessRun> line_process;  // runs of consecutive lines under one launcher prefix's process, in line order
  int64_t training_line = 0;                     // first line with a training word
  int64_t llm_line = 0;                          // first line naming an LLM
  int64_t calibration_line = 0;                  // first line naming a quantizer's calibration (calib_data ...) or a quantization run
  int64_t model_altered_line = 0;                      // first line naming a model being pruned, edited, unlearned or exported (prune, MEMIT, EasyEdit, torch.onnx.export ...)
  // first line running a checkpoint's conversion script (convert_*_to_hf.py, convert_hf_to_gguf.py, zero_to_fp32.py ...)
  int64_t conversion_line = 0;
  int64_t export_line = 0;                       // first line calling a model's export (torch.onnx.export(, torch.jit.trace( ...)
  int64_t export_told_line = 0;                  // first line calling or telling the failing run a model's export (model_export_failed())
  int64_t illegal_access_line = 0;               // first line printing CUDA's "an illegal memory access was encountered"
  int64_t gen_word_line = 0;                     // first line naming generation (generate, max_new_tokens, past_key_values ...)
  std::vector<int64_t> host_allocator_lines;     // lines naming CUDA's caching host allocator (pinned host memory)
  int64_t device_named_line = 0;                 // first line, frames and code included, naming a GPU or another accelerator (-1: not read past line 2000)
  int64_t no_gpu_line = 0;                       // first line telling the machine has no GPU (no_gpu_told())
  int64_t unified_memory_line = 0;               // first line naming an NVIDIA Jetson board (its GPU shares the board's RAM)
  std::vector<MemorySummaryTable> memory_summaries;  // torch.cuda.memory_summary() tables (memory_summary_row()), in line order
  int64_t host_engine_line = 0;                  // first line naming a data engine that runs in host memory (DuckDB ...)
  int64_t accelerator_line = 0;                  // first line naming an accelerator (GPU, CUDA, VRAM, TPU, NPU, MPS)
  std::vector<std::pair<int64_t, std::string>> job_stops;  // (line, what): a scheduler stopped the job (job_stopped())
  std::vector<int64_t> interrupts;               // lines showing the run interrupted by hand (Ctrl-C)
  int64_t memory_kill_line = 0;                  // first line telling a kill for memory (oom-kill, OUT_OF_MEMORY, ...)
  int64_t no_autograd_line = 0;                  // first line naming a runtime without autograd (ONNX Runtime, Core ML ...)
  int64_t tf_exception_line = 0;                 // first line opening with TensorFlow's ResourceExhaustedError
  bool paddle_named = false;                     // PaddlePaddle named (its ResourceExhaustedError is its own)
  bool megengine_named = false;                  // MegEngine named ("import megengine", "MegEngine 1.13")
  bool caffe_named = false;                      // Caffe named ("import caffe", pycaffe, deploy.prototxt)
  bool mxnet_named = false;                      // MXNet named ("import mxnet", "mxnet-cu112", gluoncv)
  bool darknet_named = false;                    // Darknet named ("./darknet detector train", dark_cuda.c)
  bool rapids_named = false;                     // RAPIDS named (cudf, dask_cudf, LocalCUDACluster, cuml)
  int64_t tf_import_line = 0;                   // "import tensorflow", "import tensorflow_datasets as tfds"
  int64_t jax_import_line = 0;                  // "import jax.numpy as np", "from jax import ...", flax
  int64_t torch_import_line = 0;                // "import torch", "from torch ..."
  bool tf_gpu_hidden = false;                   // "tf.config.set_visible_devices([], 'GPU')"
  int64_t checkpoint_kept_line = 0;             // the loaded checkpoint told kept, holding memory
  std::vector<int64_t> tactic_skip_lines;       // TensorRT's builder skipping a tactic for want of memory
  std::vector<int64_t> engine_built_lines;      // TensorRT's build told finished
  std::vector<int64_t> module_load_oom_lines;   // a kernel's module (CUBIN) failing to load, out of memory
  int64_t xla_prealloc_off_line = 0;            // XLA_PYTHON_CLIENT_PREALLOCATE=false set
  int64_t generate_call_line = 0;               // first line calling .generate(
  int64_t rmm_pool_cap_line = 0;                // first line telling an RMM pool's own cap exceeded
  int64_t diffusers_pipeline_line = 0;          // first line importing or building a diffusers pipeline (its __call__ runs under no_grad)
  std::vector<int64_t> pipeline_call_lines;      // lines calling a pipeline object ("image = pipe(prompt)"), at most 64
  int64_t rmm_device_fail_line = 0;             // first line of a device allocation failing in RMM or CUDA
  int64_t device_map_split_line = 0;            // device_map="auto" / "balanced" / "sequential" named
  int caffe_cudnn = 0;                           // Caffe's cuDNN build told (LogContext::caffe_cudnn)
  bool mlx_named = false;                        // Apple's MLX named ("import mlx.core", "mlx_lm.generate")
  bool native_runtime_named = false;             // llama.cpp / ggml / Ollama named
  std::vector<int64_t> kv_cache_failed_lines;    // llama.cpp telling its KV cache's buffer failed
  std::vector<int64_t> compute_buffer_failed_lines;  // ggml's graph allocator failing to reserve its compute buffers
  std::vector<int64_t> llama_context_lines;      // llama.cpp's context told (llama_new_context, "llama_context:", llama_kv_cache)
  std::vector<int64_t> collective_lines;         // frames or calls of torch.distributed's object collectives
  int64_t set_device_line = 0;                   // first line calling set_device (torch.cuda.set_device(local_rank))
  int64_t ddp_frame_line = 0;                    // first frame of DistributedDataParallel (torch/nn/parallel/distributed.py)
  int64_t ranks_line = 0;                        // first line telling several ranks / GPUs (torchrun, DDP, "[rank1]")
  int64_t model_split_line = 0;                  // first tensor- / model-parallel size set (one model over several GPUs)
  int64_t cpu_load_fix_line = 0;                 // first line telling a load onto the CPU fixed it (cpu_load_fixed())
  int64_t lora_line = 0;                         // first line naming LoRA / QLoRA / PEFT, not denied (adapters: a small optimizer state)
  int64_t full_finetune_line = 0;               // first line naming full fine-tuning as the run ("--finetuning_type full")
  int64_t zero3_line = 0;                        // first line naming ZeRO stage 3 or FSDP's full shard (the weights sharded)
  int64_t one_gpu_line = 0;                      // first line telling one GPU as the run's ("single GPU", 单卡)
  std::vector<std::array<int64_t, 4>> smi_rows;   // nvidia-smi process rows: (line, GPU index, MiB, 1 if a compute (C) process)
  int64_t smi_used_mib = 0;                      // the largest "used / total" MiB of nvidia-smi's GPU rows ("22870MiB / 24576MiB")
  int64_t sharding_denied_line = 0;              // first line naming FSDP / DeepSpeed as not used
  int64_t zero0_line = 0;                        // first line naming ZeRO stage 0 (DeepSpeed without sharding)
  int64_t small_optimizer_line = 0;              // first line naming SGD, Adafactor or the optimizer offloaded
  int64_t batch_in_vain_line = 0;                // first line telling a smaller batch did not help
  int64_t replay_memory_line = 0;                // first line naming an RL agent's replay memory (DQN, a replay buffer)
  int64_t structure_model_line = 0;              // first line naming a protein structure model (AlphaFold, OpenFold, ...)
  int64_t image_generation_line = 0;             // first line naming an image-generation app or pipeline (SDXL, ComfyUI, ...)
  int64_t batch_word_line = 0;                   // first line with a word starting "batch"
  int64_t train_token_line = 0;                  // first line with "train" inside a word (not "pretrain") or "dreambooth"
  int64_t grad_disabled_line = 0;                // first line turning autograd off without no_grad (set_grad_enabled(False))
  int64_t loss_or_step_line = 0;                 // first line naming a loss, a criterion, backward() or an optimizer
  std::vector<int64_t> command_lines;            // lines starting a command ("$ ...", "python train.py", "torchrun ...")
  int64_t quantized_line = 0;                    // first line naming quantized weights
  int64_t load_quantized_line = 0;               // first line quantizing at load (load_in_4bit / 8bit, BitsAndBytesConfig)
  int64_t export_quant_line = 0;                 // first line of an export that quantizes (--export_quantization_bit 4)
  int64_t torch03_line = 0, torch04_line = 0;    // "pytorch 0.3" / "pytorch 0.4" mentioned
  std::vector<std::pair<int64_t, int64_t>> batch, seq, gpus;  // (line, value) settings in line order
  std::vector<std::pair<int64_t, int64_t>> gpus_named;       // (line, count) GPUs counted in words (gpu_count())
  std::vector<std::pair<int64_t, std::string>> models;
  std::vector<std::pair<int64_t, int64_t>> params;     // (line, parameters) of a model named with its size
  int64_t stated_device_bytes = 0;                     // the largest device memory the log states
  int64_t host_ram_bytes = 0;                          // the largest host RAM the log names (host_tagged_size())
  int64_t linux_line = 0;                              // first line naming Linux (Ubuntu, a /home/ path, Colab, SLURM)
  int64_t memory_fraction_line = 0;                    // first line naming a memory fraction (set_per_process_memory_fraction)
  int64_t named_device_bytes = 0;                      // the largest size next to a GPU's name ("GPU 12GB", "RTX 2080 11G")
  std::array<int64_t, 10> framework_hits{};      // see kFrameworks
  std::set<std::string> device_ids;
};

namespace {

// Fragmentation of the memory told in `lo` (a line, lower-cased): a fragment word beside the
// memory it breaks up (memory, the allocator, its cache, its bytes "reserved but unused" with their
// figure, the address space, VRAM, the heap), not
// PyTorch's hint, a percentage of fragmentation, "a fragment of", a question or an "if".
bool fragmentation_told(std::string_view lo) {
  auto has = [&](std::string_view s) { return lo.find(s) != std::string_view::npos; };
  if (!(has("fragmentation") || has("fragmented") || has("fragments the") || has("fragment the"))) return false;
  if (!(has("memory") || has("allocator") || has("address space") || has("cache") || has("vram") || has("heap") ||
        has("dram") ||
        // the allocator's own figures: "due to fragmentation: PyTorch had 10.41 GiB reserved but unused"
        (has("reserved but un") && (has("gib") || has("mib") || has("gb"))))) {
    return false;
  }
  if (has("to avoid fragmentation") || has("% fragmentation") || has("fragment of") || has("?")) return false;
  // A general note or another problem's ("fragmentation ... may prevent large allocations", "because
  // of fragmentation last month; this is a different problem"): not told of this failure.
  if (has(" may prevent") || has(" may cause") || has(" might cause") || has(" can cause") || has(" could cause") ||
      has("different problem") || has("different issue") || has("another problem") || has("another issue")) {
    return false;
  }
  const std::string_view t = trim_view(lo);
  return !(t.rfind("if ", 0) == 0 || has(" if the cause") || has("whether"));
}

// Where PyTorch's version `version` ("0.3") is named after "torch" ("pytorch 0.3.0", "torch==0.4",
// "PyTorch version 0.4.1", "torch v0.4"), not a figure elsewhere on the line ("torch.OutOfMemoryError:
// ... of which 0.43 MiB is free", "loss 0.4021"); npos when it is not.
size_t torch_version_at(std::string_view lo, std::string_view version) {
  for (size_t at = lo.find("torch"); at != std::string_view::npos; at = lo.find("torch", at + 5)) {
    size_t k = at + 5;
    auto separators = [&] {
      while (k < lo.size() && (lo[k] == ' ' || lo[k] == '=' || lo[k] == ':')) ++k;
    };
    separators();
    if (lo.compare(k, 7, "version") == 0) k += 7;
    separators();
    if (k < lo.size() && lo[k] == 'v') ++k;
    if (lo.compare(k, version.size(), version) != 0) continue;
    const size_t at_version = k;
    k += version.size();
    if (k < lo.size() && is_digit(lo[k])) continue;  // "0.43"
    return at_version;
  }
  return std::string_view::npos;
}

// The version at `at` named as working in its clause ("... but runs fine on PyTorch 0.4.0").
bool version_works(std::string_view lo, size_t at) {
  size_t from = 0, to = lo.size();
  for (std::string_view sep : {" but ", ", ", "; ", ". "}) {
    const size_t b = lo.rfind(sep, at);
    if (b != std::string_view::npos) from = std::max(from, b + sep.size());
    const size_t e = lo.find(sep, at);
    if (e != std::string_view::npos) to = std::min(to, e);
  }
  const std::string_view clause = lo.substr(from, to - from);
  for (std::string_view w : {"fine", "works", "worked", "no problem", "runs well", "without problem"}) {
    if (clause.find(w) != std::string_view::npos) return true;
  }
  return false;
}

// unsloth's inference mode told (a statement's reading).
constexpr std::string_view kForInference =
    "the model put in inference mode (for_inference), a forward outside torch.no_grad() still keeps its graph: ";

// Linux named as a word: the system, its distributions, hosted notebooks and clusters that run it.
constexpr std::string_view kLinuxWords[] = {"linux", "ubuntu", "debian", "centos", "fedora", "rhel", "colab", "kaggle",
                                            "sagemaker", "docker"};

// A forward's output detached in the user's code, read as a graph built at inference (a statement's
// reading).
constexpr std::string_view kForwardDetached =
    "a forward's output detached in the code (.detach() after the call: the forward built a graph), with no "
    "no_grad / inference_mode shown and nothing trained: ";

// Whether the lower-cased code line `lo` detaches a forward's result: ").detach()" or through its
// attributes, ").sample.detach()", "(x)[0].detach()" ("output = vae(x).sample.detach().cpu()"), where
// the call is a module's or function's, not a tensor method's or a constructor's ("x.cpu().detach()",
// "torch.tensor(y).clone().detach()", "(a + b).detach()"); not a name's, "loss.detach()", "fake.detach()".
bool call_result_detached(std::string_view lo) {
  static constexpr std::string_view kNotForward[] = {
      "cpu", "cuda", "to", "clone", "float", "half", "double", "long", "int", "bool", "bfloat16", "contiguous", "view",
      "reshape", "squeeze", "unsqueeze", "permute", "transpose", "flatten", "mean", "sum", "max", "min", "argmax",
      "softmax", "sigmoid", "numpy", "item", "type", "detach", "expand", "repeat", "abs", "exp", "log", "sqrt", "clamp",
      "round", "tensor", "as_tensor", "from_numpy", "zeros", "ones", "randn", "rand", "empty", "full", "arange", "stack",
      "cat", "zeros_like", "ones_like", "requires_grad_"};
  for (size_t p = lo.find(".detach()"); p != std::string_view::npos; p = lo.find(".detach()", p + 1)) {
    size_t q = p;
    // Back over ".attr" and "[index]" links to the call's closing parenthesis.
    while (q > 0 && lo[q - 1] != ')') {
      if (lo[q - 1] == ']') {
        const size_t open = lo.rfind('[', q - 1);
        if (open == std::string_view::npos) break;
        q = open;
        continue;
      }
      size_t a = q;
      while (a > 0 && word_char(lo[a - 1])) --a;
      if (a == q || a == 0 || lo[a - 1] != '.') break;
      q = a - 1;
    }
    if (q == 0 || lo[q - 1] != ')') continue;
    // The call's opening parenthesis and the name called.
    size_t open = q - 1;
    int depth = 0;
    for (size_t k = q; k-- > 0;) {
      if (lo[k] == ')') ++depth;
      else if (lo[k] == '(' && --depth == 0) {
        open = k;
        break;
      }
    }
    if (depth != 0 || open == 0) continue;
    size_t a = open;
    while (a > 0 && word_char(lo[a - 1])) --a;
    const std::string_view callee = lo.substr(a, open - a);
    if (callee.empty() || is_digit(callee.front()) ||
        std::find(std::begin(kNotForward), std::end(kNotForward), callee) != std::end(kNotForward)) {
      continue;
    }
    return true;
  }
  return false;
}

// A fix denied on the lower-cased line `lo`: "doesn't fix it", "did not fix the problem", "does not fix
// the error" ("n't fix" / "not fix" then it, the, this, my, anything or the clause's end); not "can't
// fix the batch size at 8" (cannot set it), nor "is not fixed" (variable).
bool fix_denied(std::string_view lo) {
  for (std::string_view neg : {"n't fix", "not fix"}) {
    for (size_t p = lo.find(neg); p != std::string_view::npos; p = lo.find(neg, p + 1)) {
      const std::string_view before = lo.substr(0, p);
      const bool cannot = (neg == "n't fix" && before.size() >= 2 && before.substr(before.size() - 2) == "ca") ||
                          (neg == "not fix" && before.size() >= 3 && before.substr(before.size() - 3) == "can");
      if (cannot) continue;  // "can't fix", "cannot fix"
      const size_t e = p + neg.size();
      if (e < lo.size() && is_alpha(lo[e])) continue;  // "not fixed", "not fixable"
      std::string_view rest = lo.substr(e);
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      if (rest.empty() || rest.front() == '.' || rest.front() == ',' || rest.front() == '!' || rest.front() == ';') return true;
      for (std::string_view o : {"it", "the ", "this", "that", "my ", "anything"}) {
        if (rest.substr(0, o.size()) == o && (o.back() == ' ' || rest.size() == o.size() || !is_alpha(rest[o.size()]))) {
          return true;
        }
      }
    }
  }
  return false;
}

// dask-cuda's workers given an RMM pool (LocalCUDACluster(rmm_pool_size=...)), read as the memory
// other processes hold where the failing allocation is not the pool's own (a statement's reading).
constexpr std::string_view kWorkersPool =
    "dask-cuda's workers each pre-allocate an RMM pool of rmm_pool_size on their GPU: the client, or any other "
    "process on that GPU, gets only what the pools leave: ";

// Memory allotted to a job told, read as the host's RAM where the log names no accelerator (a
// statement's reading).
constexpr std::string_view kJobAllotted = "memory allotted to a job told (a scheduler's grant of host RAM): ";
constexpr std::string_view kSwapSetUp = "swap told set up beside the failure (swap backs only the host's RAM): ";
constexpr std::string_view kHpcJobMemory = "memory told against an HPC job's (a cluster job's memory is the host's RAM): ";
constexpr std::string_view kMachineType = "a cloud machine's type told (its size is the host's RAM): ";

// The resume told, read as the optimizer's state loaded (a statement's reading).
constexpr std::string_view kResumeOptimizer = "fails when resuming from a checkpoint: the optimizer's state loaded onto the GPU: ";

// Several ranks or GPUs told anywhere in the log: ranks ("[rank1]", torchrun), two device ids, a
// GPU count above one in a setting or in the user's words.
bool several_gpus_told(const LogEvidence& ev) {
  auto above_one = [](const std::vector<std::pair<int64_t, int64_t>>& v) {
    return std::any_of(v.begin(), v.end(), [](const auto& p) { return p.second > 1; });
  };
  return ev.ranks_line > 0 || ev.device_ids.size() >= 2 || above_one(ev.gpus) || above_one(ev.gpus_named);
}

// A traceback's load frame that deserializes the optimizer's saved state
// ("optimizer.load_state_dict(torch.load(path))").
constexpr std::string_view kOptimizerDeserialized =
    "the optimizer's state deserialized onto the device it was saved from (optimizer.load_state_dict(torch.load(...)))";

const char* const kFrameworks[] = {"vllm", "deepspeed", "fsdp", "lightning", "hf", "accelerate", "jax", "tensorflow",
                                   "oomkit", "pytorch"};

// A framework's name `w` on `line_lower` only as not used: "run_clm.py from the repo without
// deepspeed", "not using accelerate", "not an MLX issue"; a line that also names it otherwise ("works
// without deepspeed, fails with deepspeed") still counts.
bool named_as_not_used(std::string_view w, std::string_view line_lower) {
  // Every denial below holds "no ", "not ", "n't", "without", "instead" or "neither", or is Chinese
  // (non-ASCII bytes): a line with none denies nothing ("None of the inputs" holds none of them).
  const bool non_ascii = std::any_of(line_lower.begin(), line_lower.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  if (!non_ascii && line_lower.find("no ") == std::string_view::npos && line_lower.find("not ") == std::string_view::npos &&
      line_lower.find("n't") == std::string_view::npos &&
      line_lower.find("without") == std::string_view::npos && line_lower.find("instead") == std::string_view::npos &&
      line_lower.find("neither") == std::string_view::npos) {
    return false;
  }
  auto count = [&](std::string_view s) {
    size_t n = 0;
    for (size_t p = line_lower.find(s); p != std::string_view::npos; p = line_lower.find(s, p + 1)) ++n;
    return n;
  };
  size_t negated = 0;
  for (std::string_view neg : {"without ", "not using ", "no ", "instead of ", "don't use ", "do not use ", "not use ",
                               "don't have ", "not installed ", "not an ", "not ", "n't ", "neither "}) {
    negated += count(std::string(neg) + std::string(w));
  }
  // The second name of a denied pair ("not using FSDP or deepspeed", "neither FSDP nor DeepSpeed",
  // "without ZeRO and deepspeed"): a denial within the 30 characters before the joining word, with
  // nothing but one name between.
  for (std::string_view join : {" or ", " nor ", " and ", ", "}) {
    const std::string joined = std::string(join) + std::string(w);
    for (size_t p = line_lower.find(joined); p != std::string_view::npos; p = line_lower.find(joined, p + 1)) {
      const std::string_view before = line_lower.substr(p >= 30 ? p - 30 : 0, p >= 30 ? 30 : p);
      for (std::string_view neg : {"without ", "not using ", "no ", "don't use ", "do not use ", "not use ", "neither ",
                                   "didn't use ", "not "}) {
        const size_t q = before.rfind(neg);
        if (q != std::string_view::npos && before.substr(q + neg.size()).find(' ') == std::string_view::npos) {
          ++negated;
          break;
        }
      }
    }
  }
  // Chinese: 没有用 / 没用 / 不用 / 未使用 / 没有使用 (did not use, not used) just before the name (a space aside).
  if (non_ascii) {
    for (std::string_view neg : {"\xe6\xb2\xa1\xe6\x9c\x89\xe7\x94\xa8", "\xe6\xb2\xa1\xe7\x94\xa8",
                                 "\xe4\xb8\x8d\xe7\x94\xa8", "\xe6\x9c\xaa\xe4\xbd\xbf\xe7\x94\xa8",
                                 "\xe6\xb2\xa1\xe6\x9c\x89\xe4\xbd\xbf\xe7\x94\xa8"}) {
      negated += count(std::string(neg) + std::string(w)) + count(std::string(neg) + " " + std::string(w));
    }
  }
  return negated > 0 && negated >= count(w);
}

int framework_index(std::string_view w, std::string_view line_lower) {
  auto has = [&](std::string_view s) { return line_lower.find(s) != std::string_view::npos; };
  if (named_as_not_used(w, line_lower)) return -1;
  if (w == "vllm") return 0;
  if (w == "deepspeed") return has("deepspeed=none") || has("deepspeed: none") || has("deepspeed_plugin=none") ? -1 : 1;
  if (w == "fsdp" || w == "fullyshardeddataparallel") {
    return has("fsdp=[]") || has("fsdp: []") || has("fsdp_config") || has("fsdp=''") || has("fsdp_min_num_params") ? -1 : 2;
  }
  if (w == "lightning" || w == "pytorch_lightning") return 3;
  if (w == "transformers" || (w == "trainer" && line_lower.find("transformers") != std::string::npos)) return 4;
  // HF Accelerate by its package or its class in code ("accelerator.backward(loss)",
  // "Accelerator(mixed_precision=...)"); "accelerator" as a word is any device ("set_platform('<accelerator>,cpu')",
  // Lightning's Trainer(accelerator="gpu")).
  if (w == "accelerate") return 5;
  if (w == "accelerator") {
    for (size_t p = line_lower.find("accelerator"); p != std::string_view::npos; p = line_lower.find("accelerator", p + 1)) {
      // Its own name, not a part of another's (Lightning's "CUDAAccelerator(", "torch.accelerator.").
      if (p > 0 && (is_alpha(line_lower[p - 1]) || is_digit(line_lower[p - 1]) || line_lower[p - 1] == '_' ||
                    line_lower[p - 1] == '.')) {
        continue;
      }
      const size_t e = p + 11;
      if (e < line_lower.size() && (line_lower[e] == '(' ||
                                    (line_lower[e] == '.' && e + 1 < line_lower.size() && is_alpha(line_lower[e + 1])))) {
        return 5;
      }
    }
    return -1;
  }
  if (w == "jax" || w == "jaxlib" || w == "flax") return 6;
  // TensorFlow's Python module as code names it ("tf.function", "tf.data.Dataset"), TensorFlow.js.
  if (w == "tensorflow" || w == "keras" || w == "tfjs" || (w == "tf" && has("tf."))) return 7;
  if (w == "oomkit") return 8;
  if (w == "torch" || w == "pytorch") return 9;  // PyTorch itself: the default, counted to tell a log that never names it
  return -1;
}

std::string shown(std::string_view line) {
  std::string t = trim(line);
  if (t.size() > 140) t = std::string(utf8_prefix(t, 140)) + "...";  // not inside a UTF-8 character
  return t;
}

// The number after a setting's name: "batch_size=8", "--batch-size 8", "'max_length': 512", "batch size 16".
std::optional<int64_t> number_after(std::string_view lo, size_t pos) {
  size_t i = pos;
  int skipped = 0;
  while (i < lo.size() && skipped < 6 && (lo[i] == ' ' || lo[i] == '=' || lo[i] == ':' || lo[i] == '"' ||
                                          lo[i] == '\'' || lo[i] == '(' || lo[i] == '[')) {
    ++i;
    ++skipped;
  }
  // "batch size is 2", "batch size of 4"
  for (std::string_view w : {"is ", "of ", "was "}) {
    if (lo.substr(i, w.size()) == w) i += w.size();
  }
  while (i < lo.size() && lo[i] == ' ') ++i;
  if (i < lo.size() && is_digit(lo[i])) {
    size_t end = 0;
    auto v = integer_at(lo, i, &end);
    // Thousands written with commas ("a batch size of 1,024 tokens") or with Python's digit separators
    // ("batch_size=10_000", PEP 515): each ",ddd" / "_ddd" group read on, a group of exactly three
    // digits (not a list: "4,8,16").
    while (v && *v < 1'000'000'000'000 && end + 4 <= lo.size() && (lo[end] == ',' || lo[end] == '_') && is_digit(lo[end + 1]) &&
           is_digit(lo[end + 2]) && is_digit(lo[end + 3]) && (end + 4 == lo.size() || !is_digit(lo[end + 4]))) {
      v = *v * 1000 + (lo[end + 1] - '0') * 100 + (lo[end + 2] - '0') * 10 + (lo[end + 3] - '0');
      end += 4;
    }
    if (v && (end >= lo.size() || !is_alpha(lo[end]) || lo[end] == 'x')) return v;
  }
  return std::nullopt;
}

// A shipped model named by an HF id or its own name.
std::string known_model(std::string_view lo) {
  struct M {
    const char* needle;
    const char* name;
  };
  static const M kModels[] = {{"llama-2-70b", "llama-2-70b"}, {"llama-2-13b", "llama-2-13b"}, {"llama-2-7b", "llama-2-7b"},
                              {"meta-llama-3-8b", "llama-3-8b"}, {"llama-3-8b", "llama-3-8b"}, {"llama-3.1-8b", "llama-3-8b"},
                              {"gpt2-xl", "gpt2-xl"}, {"gpt2-large", "gpt2-large"}, {"gpt2-medium", "gpt2-medium"}};
  for (const auto& m : kModels) {
    if (lo.find(m.needle) != std::string_view::npos) return m.name;
  }
  return "";
}

// Chinese words of memory short besides kZhUsedUp (log_text.h): 爆 (blown), 不足 / 不够 (not enough).
constexpr std::string_view kZhShortOf[] = {"\xe7\x88\x86", "\xe4\xb8\x8d\xe8\xb6\xb3", "\xe4\xb8\x8d\xe5\xa4\x9f"};

// Settings whose size sets the memory, by the cause they set (a knob's name where a word starts):
// read where the user tells one raised before the failure (raised_setting_told()) and where the user
// tells a fix or a cause (stated_account(), beside the remedies' names).
struct SettingKnob {
  std::string_view text;
  OomCause cause;
};
constexpr SettingKnob kSettingKnobs[] = {
        {"max_length", OomCause::kActivationsSeqlen}, {"max length", OomCause::kActivationsSeqlen},
        {"max_seq_len", OomCause::kActivationsSeqlen}, {"max_seq_length", OomCause::kActivationsSeqlen},
        {"seq_len", OomCause::kActivationsSeqlen}, {"seq_length", OomCause::kActivationsSeqlen},
        {"sequence length", OomCause::kActivationsSeqlen}, {"sequence_length", OomCause::kActivationsSeqlen},
        {"max_len", OomCause::kActivationsSeqlen},
        {"block_size", OomCause::kActivationsSeqlen}, {"cutoff_len", OomCause::kActivationsSeqlen},
        {"max_source_length", OomCause::kActivationsSeqlen}, {"max_target_length", OomCause::kActivationsSeqlen},
        {"image size", OomCause::kActivationsSeqlen}, {"image_size", OomCause::kActivationsSeqlen},
        {"img_size", OomCause::kActivationsSeqlen}, {"imgsz", OomCause::kActivationsSeqlen},
        {"resolution", OomCause::kActivationsSeqlen}, {"input size", OomCause::kActivationsSeqlen},
        {"input_size", OomCause::kActivationsSeqlen}, {"crop size", OomCause::kActivationsSeqlen},
        {"crop_size", OomCause::kActivationsSeqlen}, {"patch size", OomCause::kActivationsSeqlen},
        {"num_frames", OomCause::kActivationsSeqlen},
        {"batch size", OomCause::kActivationsBatch}, {"batch_size", OomCause::kActivationsBatch},
        {"batchsize", OomCause::kActivationsBatch}, {"micro batch", OomCause::kActivationsBatch},
        {"micro_batch", OomCause::kActivationsBatch}, {"mini_batch", OomCause::kActivationsBatch},
        {"max_model_len", OomCause::kGenerationKvCache}, {"num_ctx", OomCause::kGenerationKvCache},
        {"n_ctx", OomCause::kGenerationKvCache}, {"ctx_size", OomCause::kGenerationKvCache},
        {"context window", OomCause::kGenerationKvCache},
        {"context length", OomCause::kGenerationKvCache}, {"context_length", OomCause::kGenerationKvCache},
        {"max_new_tokens", OomCause::kGenerationKvCache}, {"max_tokens", OomCause::kGenerationKvCache},
        {"max_num_seqs", OomCause::kGenerationKvCache}, {"num_beams", OomCause::kGenerationKvCache},
        {"num_workers", OomCause::kCpuRam}, {"prefetch_factor", OomCause::kCpuRam},
};

class Reader {
 public:
  explicit Reader(LogEvidence& ev) : ev_(ev) {}

  void line(std::string_view raw, int64_t n) {
    if (raw.size() > kMaxLineChars) raw = raw.substr(0, kMaxLineChars);
    lo_.assign(raw.begin(), raw.end());
    unsigned char high = 0;
    for (char& c : lo_) {
      c = lower_char(c);
      high |= static_cast<unsigned char>(c);
    }
    ascii_ = high < 0x80;
    const std::string_view lo = lo_;
    std::string_view t = trim_view(lo);
    if (t.empty()) {
      under_frame_ = false;
      ipython_open_ = false;
      return;
    }
    // An issue template's unchecked box ("- [ ] circleci", "- [ ] GPU", "- [ ] My own modified scripts"):
    // an option the user did not pick, no evidence of what ran. (Not one the user wrote settings on,
    // "- [ ] My own modified scripts (batch_size=64)": a digit, '=' or ':' keeps the line.)
    if (t.size() >= 6 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t.compare(1, 5, " [ ] ") == 0 &&
        t.find_first_of("0123456789=:") == std::string_view::npos) {
      return;
    }
    // The line's character pairs, once: the phrase scans below and statement()'s skip a line that
    // lacks a phrase's first, middle or last pair (CharPairs) without reading it.
    pairs_.assign(lo);
    // (And the line add() reads for code_line(): facts added here, before statement(), are this line's, not
    // the previous line's, whose buffer is gone.)
    line_lo_ = lo;
    auto in_view = [&](std::string_view v, std::string_view s) { return pairs_.may_contain(s) && v.find(s) != std::string_view::npos; };
    auto in_t = [&](std::string_view s) { return in_view(t, s); };
    // Python's imports of two frameworks that each take the GPU's memory for their own pool:
    // TensorFlow (also through tensorflow_datasets) beside JAX or PyTorch in one script.
    if ((t[0] == 'i' || t[0] == 'f') && (t.rfind("import ", 0) == 0 || t.rfind("from ", 0) == 0)) {
      const std::string_view mod = trim_view(t.substr(t[0] == 'i' ? 7 : 5));
      if (mod.rfind("tensorflow", 0) == 0 && !ev_.tf_import_line) ev_.tf_import_line = n;
      if ((mod.rfind("jax", 0) == 0 || mod.rfind("flax", 0) == 0) && !ev_.jax_import_line) ev_.jax_import_line = n;
      if (mod.rfind("torch", 0) == 0 && !ev_.torch_import_line) ev_.torch_import_line = n;
    }
    // TensorRT's builder skipping a tactic whose scratch memory did not fit ("Skipping tactic 8 due to
    // insufficient memory on requested size of N", "Device memory is insufficient to use tactic"): it
    // goes on with another tactic.
    if (in_t("tactic") && (in_t("skipping tactic") || in_t("insufficient to use tactic"))) {
      ev_.tactic_skip_lines.push_back(n);
    }
    // A GPU kernel's module failing to load for want of memory ("Failed to load in-memory CUBIN:
    // CUDA_ERROR_OUT_OF_MEMORY", cuModuleLoadData): the memory was gone before the kernel ran.
    // (CuPy's driver.moduleLoadData too; not the warning that falls back to PTX and goes on.)
    if ((in_t("cubin") || in_t("moduleload")) && (in_t("out_of_memory") || in_t("out of memory")) && !in_t("falling back")) {
      ev_.module_load_oom_lines.push_back(n);
    }
    // JAX's preallocation turned off ("XLA_PYTHON_CLIENT_PREALLOCATE=false").
    if (in_t("xla_python_client_preallocate") && in_t("false")) {
      ev_.xla_prealloc_off_line = n;
    }
    if (!ev_.generate_call_line && in_t(".generate(")) ev_.generate_call_line = n;
    // A diffusers pipeline imported or built ("from diffusers import StableVideoDiffusionPipeline", "pipe =
    // StableVideoDiffusionPipeline.from_pretrained(...)", "FluxImg2ImgPipeline.from_single_file(...)"): its
    // __call__ is decorated with @torch.no_grad(), so running it keeps no graph.
    if (!ev_.diffusers_pipeline_line && in_t("pipeline") &&
        ((in_t("from diffusers") && in_t("import")) || in_t("pipeline.from_pretrained(") ||
         in_t("pipeline.from_single_file(") || (in_t("pipelinefor") && in_t(".from_pretrained(")))) {
      ev_.diffusers_pipeline_line = n;
    }
    // ... and a pipeline object called ("frames = pipe(image, decode_chunk_size=8)", "image = pipeline(prompt)"):
    // not its building nor a definition.
    if (ev_.pipeline_call_lines.size() < 64 && (in_t("pipe(") || in_t("pipeline(")) && !in_t("from_pretrained(") &&
        !in_t("from_single_file(") && !in_t("def ") && !in_t("import ")) {
      ev_.pipeline_call_lines.push_back(n);
    }
    // RMM's pool at its own cap ("RMM failure at: .../pool_memory_resource.hpp: Maximum pool size exceeded").
    if (!ev_.rmm_pool_cap_line && in_t("maximum pool size exceeded")) ev_.rmm_pool_cap_line = n;
    // ... and a device allocation failing ("std::bad_alloc: CUDA error at: .../rmm/mr/device/...",
    // "cudaErrorMemoryAllocation out of memory", PyTorch's "CUDA out of memory").
    if (!ev_.rmm_device_fail_line && (in_t("/rmm/mr/device/") || in_t("rmm failure") || in_t("cudaerrormemoryallocation") ||
                                      in_t("cuda out of memory") || in_t("cuda_error_out_of_memory") ||
                                      (in_t("bad_alloc") && in_t("cuda error")))) {
      ev_.rmm_device_fail_line = n;
    }
    // A model spread over the GPUs by accelerate's device_map ("device_map=\"auto\"", "balanced").
    if (!ev_.device_map_split_line && in_t("device_map") && (in_t("auto") || in_t("balanced") || in_t("sequential"))) {
      ev_.device_map_split_line = n;
    }
    // ... and its build told finished ("Engine generation completed in 80 seconds", "Engine built"):
    // a failure after it is the engine's run, not the build's.
    if (in_t("engine") && (in_t("engine generation completed") || in_t("engine built") || in_t("serialized engine") ||
                           in_t("finished building"))) {
      ev_.engine_built_lines.push_back(n);
    }
    // The loaded checkpoint itself told holding memory ("the checkpoint pickle was wasting over 1GB",
    // "the checkpoint dict kept on GPU was holding 3GB", "del checkpoint" as the fix).
    // So does the first forward pass after the load told failing ("after the checkpoint is loaded, ... this
    // error on the first forward pass"): before any step, what the load left on the GPU is there.
    if (!ev_.checkpoint_kept_line && (in_t("checkpoint") || in_t("ckpt") || in_t("pickle")) &&
        contains_any(t, {"wasting", "never unloaded", "not unloaded", "never freed", "not freed", "kept on gpu",
                         "kept on the gpu", "kept in memory", "stays in memory", "stays on the gpu", "never deleted",
                         "not deleted", "del checkpoint", "del ckpt", "checkpoint = none", "ckpt = none",
                         "first forward"})) {
      ev_.checkpoint_kept_line = n;
    }
    // TensorFlow kept off the GPU ("tf.config.set_visible_devices([], 'GPU')"): its pool is the host's.
    if (!ev_.tf_gpu_hidden && in_t("set_visible_devices([]")) ev_.tf_gpu_hidden = true;
    // Rich tracebacks (typer / transformers / accelerate): boxed lines, "│ /path/file.py:280 in train │"
    // for a frame and "│ ❱ 280 │   model.save_pretrained(out) │" for the failing code line.
    constexpr std::string_view kBar = "\xe2\x94\x82";  // U+2502
    const bool rich = t.substr(0, kBar.size()) == kBar;
    if (rich) {
      t.remove_prefix(kBar.size());
      if (t.size() >= kBar.size() && t.substr(t.size() - kBar.size()) == kBar) t.remove_suffix(kBar.size());
      t = trim_view(t);
      if (t.empty()) return;
    }
    // A traceback under a launcher's per-process prefix ("[rank0]:   File \"...\", line 599, in ..."),
    // as torchrun prints every rank's: its frames are read without the prefix, and each fact keeps
    // the process the prefix names, so that ranks printed interleaved keep their own tracebacks.
    // Other prefixes before a frame (pdsh's "worker-1: ", a logger's "ERROR 06-01 10:00:00
    // [core.py:584] ") are dropped too: what precedes `File "` up to 160 characters, with no quote
    // and ending in ':', ']', ')' or '>'.
    line_process_ = -1;
    if (!rich) {
      size_t p = 0;
      if (t[0] == '[' || t[0] == '(' || t[0] == 'r') {
        p = launcher_prefix(t, &line_process_);
      } else if (t.size() > 12 && t.substr(0, 48).find('[') != std::string_view::npos) {
        const std::string_view head = t.substr(0, 48);
        size_t q = head.find("[rank");
        if (q == std::string_view::npos) q = head.find("[default");
        if (q != std::string_view::npos) launcher_prefix(t.substr(q), &line_process_);  // "worker-1: [rank0]: ..."
      }
      if (t.compare(p, 6, "file \"") != 0) {
        const size_t quote = t.find('"', p);  // the first quote: a frame's path opens it (a cheap test first)
        const size_t f = quote != std::string_view::npos && quote >= p + 5 && t.compare(quote - 5, 5, "file ") == 0
                             ? quote - 5
                             : std::string_view::npos;
        if (f != std::string_view::npos && f > p && f - p <= 160) {
          const std::string_view before = trim_view(t.substr(p, f - p));
          const char last = before.empty() ? 0 : before.back();
          // (Or a list's number: "1、File ...", "2. File ...".)
          const bool list_number = before.size() <= 6 && is_digit(before[0]) &&
                                   (last == '.' || (before.size() >= 3 && before.substr(before.size() - 3) == "\xe3\x80\x81"));
          if ((last == ':' || last == ']' || last == ')' || last == '>' || list_number) && before.find('"') == std::string_view::npos &&
              t.find("\", line ", f) != std::string_view::npos) {
            p = f;
          }
        }
      }
      if (p > 0 && p < t.size()) t.remove_prefix(p);
    }
    // Traceback structure ("Traceback (most recent call last):", "> Traceback ...", a rich box's header).
    // Not Paddle's "C++ Traceback (most recent call last):" under a Python one: the Python frames
    // above it stay the report's.
    if (t.size() < 200 && in_view(t, "traceback (most recent call last)") && !in_view(t, "c++ traceback")) {
      add(n, FactKind::kTracebackStart, OomCause::kOther, 0, "traceback");
      under_frame_ = false;
      traceback_line_ = n;
      note_process(n);
      return;
    }
    const bool rich_frame = rich && t.find(".py:") != std::string_view::npos && t.find(" in ") != std::string_view::npos;
    const bool rich_code = rich && !rich_frame && t.find("\xe2\x9d\xb1") != std::string_view::npos;  // U+2771
    if (rich && !rich_frame && !rich_code) return;  // the box's context lines: not the failing code
    // IPython's and Jupyter's tracebacks: a frame "/path/file.py in func(args)" or "<ipython-input-35-..>
    // in <module>" (IPython 7 and older), "File /path/file.py:14, in func(args)" or "Cell In[35], line 7"
    // (IPython 8), then numbered source lines around the failing one, which an arrow marks ("----> 7
    // classes=2"). Read as Python's: the frame, and the arrow's code as the code line under it; the
    // numbered lines around it are context, not the failing code (read as any other line).
    const bool ipython_frame = !rich && ipython_frame_line(t);
    bool ipython_context = false;
    if (ipython_frame) {
      ipython_open_ = true;
    } else if (ipython_open_ && !rich) {
      if (const std::string_view code = ipython_arrow_code(t); !code.empty()) {
        t = code;
      } else if (is_digit(t[0])) {
        ipython_context = true;
      } else {
        ipython_open_ = false;
      }
    }
    const bool frame = t.rfind("file \"", 0) == 0 || rich_frame || ipython_frame;
    const bool code_under_frame = (under_frame_ && !frame && !ipython_context) || rich_code;
    if (frame) {  // PyTorch's own nn modules (module.py's _call_impl, linear.py's forward): no phase of the model's
      library_frame_ = t.find("/torch/nn/") != std::string_view::npos || t.find("\\torch\\nn\\") != std::string_view::npos;
    } else if (!under_frame_) {
      library_frame_ = false;
    }
    if (!ipython_context) under_frame_ = frame;
    if (frame) traceback_line_ = n;
    note_process(n);
    // TensorFlow names the op that failed under its OOM ("[[Node: conv6/biases/Adam/Initializer/zeros
    // = Const[...]", "[[{{node .../Initializer/random_uniform}}]]"): a variable's initializer runs
    // once, when the variables are created, before any step: no activation exists yet. Read as
    // the model's load, weaker than the model's own (a frame of phase 'I').
    if (!frame && (in_view(t, "[[node") || in_view(t, "{{node ")) && in_view(t, "/initializer/")) {
      add(n, FactKind::kFrame, OomCause::kOther, 0, "a variable's initializer (TensorFlow creates the variables, no step has run)",
          'I');
    }
    // The same in TensorFlow 1.x's Python, on a traceback's code line: the session running the variables'
    // initializer op ("sess.run(tf.global_variables_initializer())", tf.initialize_all_variables(),
    // tf.variables_initializer(...)) allocates every variable, before any step.
    if (code_under_frame && (in_view(t, "global_variables_initializer") || in_view(t, "initialize_all_variables") ||
                             in_view(t, "variables_initializer("))) {
      add(n, FactKind::kFrame, OomCause::kOther, 0,
          "the variables' initializer run (TensorFlow creates the variables, no step has run)", 'I');
    }

    // ZeRO stage 0 ("DeepSpeed ZeRO stage 0 (no sharding)", "ZeRO-0", "zero_stage=0", "zero_optimization":
    // {"stage": 0}): DeepSpeed without any sharding, each rank a whole copy. Not "zero-0.5" (a number), nor
    // a JSON "stage" of anything else.
    if (!ev_.zero0_line && (line_has(lo, "zero") || line_has(lo, "shard"))) {
      // (DeepSpeed's JSON, "zero_optimization": {"stage": 0}, with its section named on the line.)
      const bool zero_json = lo.find("zero_optimization") != std::string_view::npos;
      for (std::string_view z : {"zero stage 0", "zero-0", "zero0", "zero_stage 0", "zero_stage=0", "zero_stage: 0",
                                 "zero_stage\": 0", "no sharding", zero_json ? "\"stage\": 0" : "zero stage 0",
                                 zero_json ? "\"stage\":0" : "zero stage 0"}) {
        const size_t p = lo.find(z);
        if (p != std::string_view::npos && (p + z.size() >= lo.size() || (!is_digit(lo[p + z.size()]) && lo[p + z.size()] != '.'))) {
          ev_.zero0_line = n;
          break;
        }
      }
    }
    if (line_has(lo, "bs")) batch_in_file_name(lo, n);
    // ZeRO stage 3 or FSDP's full shard named without the framework's name ("ZeRO-3 and CPU offload",
    // "zero3", "ds_z3_config.json", "FULL_SHARD"): the weights are sharded over the GPUs.
    if (!ev_.zero3_line && (line_has(lo, "zero") || line_has(lo, "z3") || line_has(lo, "shard")) &&
        contains_any(lo, {"zero-3", "zero3", "zero_3", "zero 3", "zero stage 3", "ds_z3", "full_shard", "full shard"})) {
      ev_.zero3_line = n;
    }
    // One GPU told as the run's: "on a single GPU", "single-GPU", "one GPU", "1 GPU", "a single A100"; 单卡 /
    // 单张 / 一张卡 / 一块卡 (one card). Not "more than one GPU".
    if (!ev_.one_gpu_line && (line_has(lo, "gpu") || line_has(lo, "single") || !ascii_)) {
      const bool english = contains_any(lo, {"single gpu", "single-gpu", "one gpu", " 1 gpu", " 1x gpu", "a single a100",
                                             "a single h100", "a single v100", "a single rtx", "a single 3090", "a single 4090"}) &&
                           !contains_any(lo, {"than one gpu", "than 1 gpu", "more than a single"});
      const bool zh = !ascii_ && contains_any(lo, {"\xe5\x8d\x95\xe5\x8d\xa1", "\xe5\x8d\x95\xe5\xbc\xa0",
                                                   "\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1", "\xe4\xb8\x80\xe5\x9d\x97\xe5\x8d\xa1"});
      if (english || zh) ev_.one_gpu_line = n;
    }
    // Full fine-tuning named in Chinese: 全参 (全参数 / 全参微调: all parameters), 全量微调 / 全量训练 (full
    // fine-tuning / training); not denied just before it (不 / 没 / 非: not).
    if (!ev_.full_finetune_line && !ascii_) {
      for (std::string_view z : {"\xe5\x85\xa8\xe5\x8f\x82", "\xe5\x85\xa8\xe9\x87\x8f\xe5\xbe\xae\xe8\xb0\x83",
                                 "\xe5\x85\xa8\xe9\x87\x8f\xe8\xae\xad\xe7\xbb\x83"}) {
        const size_t p = lo.find(z);
        if (p == std::string_view::npos) continue;
        const std::string_view before = lo.substr(p >= 3 ? p - 3 : 0, p >= 3 ? 3 : p);
        if (before != "\xe4\xb8\x8d" && before != "\xe6\xb2\xa1" && before != "\xe9\x9d\x9e") ev_.full_finetune_line = n;
        break;
      }
    }
    // Words.
    uint64_t seen = 0;
    eval_ident_ = {};
    // Where an installed package's path starts ("/home/u/eval_io/proj/.venv/lib/python3.12/site-packages/
    // flash_attn/..."): the folders before it hold the environment, their names tell no phase.
    const size_t packages_at = std::min(lo.find("site-packages"), lo.find("dist-packages"));
    for_each_token(lo, [&](size_t i, size_t j) {
      const std::string_view w = lo.substr(i, j - i);
      if (w.size() > 4 && w.substr(0, 4) == "rank" && is_digit(w[4])) seen |= uint64_t{1} << kWMulti;
      // (Not a word of a model's name joined by hyphens: "OpenAssistant/oasst-sft-4-pythia-12b-epoch-3.5"
      // names a model that was trained, not a run that trains.)
      // (Nor a folder inside a path: "./pretrain/Llama-2-13b-chat", "data/train/"; a file's name,
      // "train_args/sft-qlora.json", and a metric's, "train/loss", tell training.)
      // (Keras' and Lightning's fit as the call, "model.fit(x, y)", "trainer.fit(model)", "when I call
      // fit": not the English verb, "the model should fit in 80GB", "it doesn't fit".)
      if (!ev_.training_line && is_training_word(w) && !in_hyphenated_name(lo, i, j) &&
          !(j < lo.size() && lo[j] == '/' && i > 0 && lo[i - 1] == '/') && (w != "fit" || fit_called(lo, i, j))) {
        ev_.training_line = n;
      }
      if (!ev_.lora_line && w.size() >= 4 && (w[0] == 'l' || w[0] == 'q' || w[0] == 'p' || w[0] == 'u') &&
          (w == "lora" || w == "qlora" || w == "peft" || w.rfind("lora_", 0) == 0 || w == "use_lora" || w == "use_peft" ||
           w == "loraconfig" || w == "get_peft_model")) {
        // Not denied just before ("without LoRA", "no LoRA", "not using PEFT"): a full fine-tuning told.
        const std::string_view before = lo.substr(i >= 14 ? i - 14 : 0, i >= 14 ? 14 : i);
        if (!contains_any(before, {"without ", "no ", "not ", "n't "})) ev_.lora_line = n;
      }
      // Full fine-tuning named as the run: LLaMA-Factory's "--finetuning_type full" ("finetuning_type='full'",
      // "finetuning_type: full"), "full fine-tuning", "full-parameter", "full_finetune"; not denied just
      // before ("not full fine-tuning", "instead of full parameter training").
      if (!ev_.full_finetune_line && w.size() >= 4 && w[0] == 'f' && (w == "full" || w == "full_finetune" || w == "full_ft")) {
        const std::string_view after = lo.substr(j, 16);
        const std::string_view before = lo.substr(i >= 18 ? i - 18 : 0, i >= 18 ? 18 : i);
        const bool named_full =
            w != "full" || contains_any(after, {" fine-tun", " finetun", " fine tun", "-parameter", " parameter", "-param",
                                                " param", "_finetun", "-finetun", " sft", " training"}) ||
            contains_any(before, {"finetuning_type", "finetune_type", "fine_tuning_type", "training_type"});
        // (Nor told as not the run after it: "Full fine-tuning is not what I want", "... isn't an option".)
        const std::string_view rest = lo.substr(j, 40);
        if (named_full && !contains_any(before, {"without ", "no ", "not ", "n't ", "instead of ", "than "}) &&
            !contains_any(rest, {"not what", "isn't what", "not an option", "not possible", "don't want", "do not want",
                                 "not needed", "too expensive", "instead"})) {
          ev_.full_finetune_line = n;
        }
      }
      if (!ev_.small_optimizer_line && w.size() >= 3 && (w[0] == 's' || w[0] == 'a' || w[0] == 'o' || w[0] == 'c') &&
          (w == "sgd" || w == "adafactor" || w == "offload" || w == "offload_optimizer" || w == "cpu_offload" ||
           w == "cpuoffload")) {
        const std::string_view before = lo.substr(i >= 14 ? i - 14 : 0, i >= 14 ? 14 : i);  // not "without offload"
        if (!contains_any(before, {"without ", "no ", "not ", "n't "})) ev_.small_optimizer_line = n;
      }
      if (is_llm_with_version(w) || (w.size() > 5 && w.find('_') != std::string_view::npos && llm_in_compound(w, lo.substr(j, 8)))) {
        seen |= uint64_t{1} << kWLlmName;
      }
      if (w.size() == 4 && (w == "4bit" || w == "8bit")) seen |= uint64_t{1} << kWQuant;
      if (!ev_.structure_model_line && structure_model_word(w)) {
        ev_.structure_model_line = n;
      }
      // A batch named ("batch_size 8", "a batch of 8 images"), or training inside a compound word
      // ("train_dreambooth_lora_sdxl.py", "max_train_steps", "dreambooth"; not "from_pretrained",
      // "constrain"): what image_generation_line's reading leaves to the batch or a training run.
      if (!ev_.batch_word_line && w.rfind("batch", 0) == 0) ev_.batch_word_line = n;
      if (!ev_.train_token_line && ((w.find("train") != std::string_view::npos && w.find("pretrain") == std::string_view::npos &&
                                     w.find("strain") == std::string_view::npos) ||
                                    w.find("dreambooth") != std::string_view::npos)) {
        ev_.train_token_line = n;
      }
      if (!ev_.image_generation_line && image_generation_named(lo, i, j)) ev_.image_generation_line = n;
      // Linux named as a word (host_memory()'s commit-limit reading is Windows').
      if (!ev_.linux_line && std::find(std::begin(kLinuxWords), std::end(kLinuxWords), w) != std::end(kLinuxWords)) {
        ev_.linux_line = n;
      }
      if (w.size() == 10 && w == "set_device" && !ev_.set_device_line) ev_.set_device_line = n;
      const bool env_folder = packages_at != std::string_view::npos && i < packages_at && i > 0 &&
                              (lo[i - 1] == '/' || lo[i - 1] == '\\');
      if (eval_identifier(raw, i, j) && !setting_turned_off(lo, i, j) && !env_folder) {
        seen |= uint64_t{1} << kWEval;
        if (eval_ident_.empty()) eval_ident_ = raw.substr(i, j - i);
      }
      const auto it = w.size() >= 2 && w.size() <= 32 && !is_digit(w[0]) && first_chars()[static_cast<unsigned char>(w[0])]
                          ? words().find(w)
                          : words().end();
      // A GPU model's name in the plural ("8x 80GB A100s", "two H100s"): the GPU word (gpu_count() counts them).
      if (it == words().end() && w.size() >= 4 && w.back() == 's' && is_digit(w[w.size() - 2])) {
        const auto stem = words().find(w.substr(0, w.size() - 1));
        if (stem != words().end() && stem->second == kWGpuName) seen |= uint64_t{1} << kWGpuName;
      }
      // "multi" as a prefix of something other than devices or ranks ("multi-concept", "multi-modal",
      // "multi-label", "multi turn") tells no several GPUs: only before a device's, a process's or a
      // node's word ("multi-GPU", "multi node", "multi-process") or a GPU's model ("multi A100").
      const bool multi_not_devices = it != words().end() && it->second == kWMulti && w == "multi" && j + 1 < lo.size() &&
                                     (lo[j] == '-' || lo[j] == ' ') && is_alpha(lo[j + 1]) && !multi_of_devices(lo, j + 1);
      if (it != words().end() && !multi_not_devices) {
        seen |= uint64_t{1} << it->second;
        // A folder or file of the user's named after a framework ("/home/u/vllm-experiments/train.py")
        // is no traceback through it (the package's own folder is "/vllm/").
        // So is a folder of the user's holding the script itself ("/home/u/vllm/train.py",
        // "C:\\work\\tensorflow\\train.py"), outside an installed package's path.
        const bool in_path = i > 0 && (lo[i - 1] == '/' || lo[i - 1] == '\\') && j < lo.size();
        bool path_name = in_path && lo[j] == '-';
        if (in_path && !path_name && (lo[j] == '/' || lo[j] == '\\') && lo.find("site-packages") == std::string_view::npos &&
            lo.find("dist-packages") == std::string_view::npos && lo.find("/lib/python") == std::string_view::npos) {
          size_t k = j + 1;
          while (k < lo.size() && lo[k] != '/' && lo[k] != '\\' && lo[k] != '"' && lo[k] != '\'' && lo[k] != ' ' &&
                 lo[k] != ',' && lo[k] != ':') {
            ++k;
          }
          const std::string_view file = lo.substr(j + 1, k - j - 1);
          path_name = (k >= lo.size() || lo[k] != '/') && (k >= lo.size() || lo[k] != '\\') && file.size() > 3 &&
                      file.substr(file.size() - 3) == ".py" && file != "__init__.py";
        }
        if (it->second == kWAccel && (w == "cudf" || w == "dask_cudf" || w == "dask_cuda" || w == "cuml" ||
                                      w == "localcudacluster")) {
          ev_.rapids_named = true;  // RAPIDS: cuDF / cuML on the GPU, Dask over GPUs
        }
        if (it->second == kWFramework && !path_name) {
          // A sharding framework named as not used ("I am not using FSDP", "without deepspeed"): each
          // GPU holds a whole copy of the model.
          if (!ev_.sharding_denied_line && (w == "fsdp" || w == "deepspeed" || w == "fullyshardeddataparallel") &&
              named_as_not_used(w, lo) && !asks(lo) &&
              // (not a problem's kind denied: "this is not an FSDP issue")
              lo.find("not an " + std::string(w)) == std::string_view::npos &&
              lo.find(std::string(w) + " issue") == std::string_view::npos &&
              lo.find(std::string(w) + " bug") == std::string_view::npos) {
            ev_.sharding_denied_line = n;
          }
          const int f = framework_index(w, lo);
          if (f >= 0) ++ev_.framework_hits[static_cast<size_t>(f)];
          // TensorFlow's exception opening its line ("ResourceExhaustedError: OOM when allocating",
          // "tensorflow.python.framework.errors_impl.ResourceExhaustedError in predict_function"):
          // TensorFlow where the log names no framework (context_at()); PaddlePaddle raises one
          // of the same name.
          if (w == "resourceexhaustederror" && !ev_.tf_exception_line) {
            const std::string_view t0 = trim_view(lo.substr(0, i));
            if (t0.empty() || t0 == "tensorflow.python.framework.errors_impl." || t0 == "tf.errors.") ev_.tf_exception_line = n;
          }
          if (w == "paddle" || w == "paddlepaddle") ev_.paddle_named = true;
          // (Not where the line names it as not used: "without megengine".)
          if (w == "megengine" && !named_as_not_used(w, lo)) {
            ev_.megengine_named = true;
          }
          // Caffe (BVLC's and its forks: SSD, SegNet, crfasrnn), not Caffe2 (PyTorch's); also by its
          // files ("deploy.prototxt", "VGG16.caffemodel").
          if ((w == "caffe" || w == "pycaffe") && !named_as_not_used(w, lo)) ev_.caffe_named = true;
          if (w == "prototxt" || w == "caffemodel") ev_.caffe_named = true;
          if ((w == "mxnet" || w == "gluoncv" || w == "gluonnlp") && !named_as_not_used(w, lo)) ev_.mxnet_named = true;
          // Darknet (pjreddie's and AlexeyAB's), by name or by its CUDA source file in an error.
          if ((w == "darknet" && !named_as_not_used(w, lo)) || w == "dark_cuda") ev_.darknet_named = true;
          if (w == "use_cudnn" || w == "cudnnconvolution" || w == "cudnn_conv_layer") caffe_cudnn_told(w, lo, j);
        } else if (it->second == kWSetting) {
          setting(w, lo, j, n);
        }
      } else if (w.size() > 6 && seq_setting_word(w)) {  // max_calib_seq_len, max_token_len, max_input_length ...
        seen |= uint64_t{1} << kWSetting;
        setting(w, lo, j, n);
      }
      // A quantizer's calibration settings (AutoAWQ / GPTQ / llm-compressor: calib_data,
      // max_calib_samples, num_calibration_samples): forward passes over calibration samples, no
      // generation. The word "calibration" alone is not read (a temperature's calibration).
      if (!ev_.calibration_line && w.size() >= 6) {
        const size_t c = w.find("calib");
        if (c != std::string_view::npos && (w.compare(c, 6, "calib_") == 0 || w.compare(c, 12, "calibration_") == 0 ||
                                            (c > 0 && w[c - 1] == '_'))) {
          ev_.calibration_line = n;
        }
        // ... and an export that quantizes (LLaMA-Factory's --export_quantization_bit and
        // --export_quantization_dataset: GPTQ run on the GPU at export), not one set off
        // ("export_quantization_bit: null").
        if ((w.find("export_quantization") != std::string_view::npos || w.find("quantization_dataset") != std::string_view::npos) &&
            !flag_set_off(lo, j)) {
          ev_.calibration_line = n;
          if (!ev_.export_quant_line) ev_.export_quant_line = n;
        }
        // A model being quantized (post-training quantization: calibration passes, then the weights
        // rewritten), no generation: "quantize", "quantizing", "quantizer", a PTQ script or its mode
        // ("llm_ptq", "quant_mode", "w4a8_awq"). Not a model already quantized ("quantized", "with
        // 4-bit quantization"), which may well generate.
        // (A quantization told done before the run that fails, "After quantizing the model to int8, I
        // run model.generate(...)", is no quantization run.)
        if ((w == "quantize" || w == "quantizing" || w == "quantizer" || w == "llm_ptq" || w == "quant_mode" ||
             w.rfind("w4a8", 0) == 0 || w.rfind("w8a8", 0) == 0 || w.rfind("w4a16", 0) == 0) &&
            !quantized_then_run(lo) &&
            // (not bitsandbytes quantizing the weights as they load: "Quantizing model to 4 bit with bitsandbytes")
            lo.find("bitsandbytes") == std::string_view::npos) {
          ev_.calibration_line = n;
        }
      }
      // "FP8 quantization of Llama 70B", "during calibration of Qwen3-8B": the quantization as the run;
      // llm-compressor's oneshot() runs it.
      // (Not a sensor's, an image's or a classifier's scores' calibration: "calibration of Hyperspectral
      // Image", "of the camera", "of the predicted probabilities".)
      if (!ev_.calibration_line && (w == "quantization" || w == "calibration") && lo.compare(j, 4, " of ") == 0 &&
          !quantized_then_run(lo) && !(w == "calibration" && calibrated_thing_not_model(lo.substr(j + 4)))) {
        ev_.calibration_line = n;
      }
      if (!ev_.calibration_line && w == "oneshot" && lo.compare(j, 1, "(") == 0) ev_.calibration_line = n;
      // A model being pruned (LLM-Pruner, SparseGPT, Wanda, torch-pruning): scores from calibration
      // passes or the gradients of a loss over the whole model, no generation.
      // (Not git's or Docker's prune, nor a cache's or tokens' pruning: "git remote prune", "docker system
      // prune", "KV cache pruning", "token pruning".)
      // A model's knowledge edited or unlearned (ROME / MEMIT / EasyEdit, "model editing", unlearning
      // methods): optimisation over the model's layers and statistics passes, no generation either.
      if (!ev_.model_altered_line && (w == "memit" || w == "easyedit" || w == "unlearning" || w == "unlearn" ||
                                ((w == "editing" || w == "model_editing") &&
                                 (lo.find("model editing") != std::string_view::npos ||
                                  lo.find("knowledge editing") != std::string_view::npos ||
                                  lo.find("model_editing") != std::string_view::npos)))) {
        ev_.model_altered_line = n;
      }
      if (!ev_.model_altered_line && (w == "prune" || w == "pruning" || w == "pruner" || w == "sparsegpt") &&
          !contains_any(lo.substr(i > 16 ? i - 16 : 0, i > 16 ? 16 : i), {"remote ", "system ", "image ", "container ", "volume ",
                                                                          "git ", "cache ", "token ", "kv "})) {
        ev_.model_altered_line = n;
      }
      return true;
    });
    // A model being exported or converted (torch.onnx.export, "export the model to ONNX", torch.jit.trace,
    // torch.export, a TensorRT / Core ML / TFLite / OpenVINO conversion; 导出 "export" beside one of
    // them): one traced forward pass at the example input over the whole model's weights, no
    // generation. Not a shell's "export CUDA_VISIBLE_DEVICES=0" (no format named).
    // The export called, in code or a traceback's frame ("torch.onnx.export(model, dummy_input, ...)",
    // "  torch.onnx.export("): the run that failed is the export itself, not one told done before a
    // model is served ("I convert the model with torch.jit.trace").
    // (Read on a line naming an export call or a format only: this runs on every line.)
    const bool export_words = std::any_of(std::begin(kExportFormats), std::end(kExportFormats),
                                          [&](std::string_view f) { return line_has(lo, f); }) ||
                              line_has(lo, "jit.trace(") || line_has(lo, "torch.export.export(") ||
                              line_has(lo, "dynamo_export(");
    if (!ev_.export_line && export_words && export_called(lo)) ev_.export_line = n;
    if (!ev_.export_told_line && export_words && (ev_.export_line == n || model_export_failed(lo))) ev_.export_told_line = n;
    if (!ev_.model_altered_line && ev_.export_told_line == n) ev_.model_altered_line = n;
    // A checkpoint's conversion script run ("python convert_checkpoint.py --model_dir ...",
    // convert_llama_weights_to_hf.py, convert_hf_to_gguf.py, DeepSpeed's zero_to_fp32.py): it loads and
    // rewrites the weights, no generation. The script's name names weights or a format ("convert_pdfs.py"
    // does not); not denied on its line ("I did not need convert_llama_weights_to_hf.py").
    if (!ev_.conversion_line && line_has(lo, ".py") && (line_has(lo, "convert") || line_has(lo, "zero_to_fp32")) &&
        !contains_any(lo, {"not ", "n't ", "never ", "without "})) {
      for (size_t p = lo.find("convert"); p != std::string_view::npos && !ev_.conversion_line; p = lo.find("convert", p + 7)) {
        if (!word_starts_at(lo, p) && lo[p - 1] != '/') continue;
        size_t e = p;
        while (e < lo.size() && (word_char(lo[e]) || lo[e] == '-' || lo[e] == '.')) ++e;
        const std::string_view token = lo.substr(p, e - p);
        if (token.size() > 10 && token.substr(token.size() - 3) == ".py" && (token[7] == '_' || token[7] == '-') &&
            contains_any(token, {"checkpoint", "ckpt", "weight", "hf", "gguf", "ggml", "llama", "model", "safetensors", "fp16",
                                 "fp32", "bf16", "megatron", "state_dict", "lora"})) {
          ev_.conversion_line = n;
        }
      }
      if (!ev_.conversion_line && line_has(lo, "zero_to_fp32.py")) ev_.conversion_line = n;
      if (ev_.conversion_line && !ev_.model_altered_line) ev_.model_altered_line = n;
    }
    // A quantizer's calibration told in Chinese (校准: "INT4 量化（AWQ 校准）"): the same run.
    if (!ascii_ && !ev_.calibration_line && lo.find("\xe6\xa0\xa1\xe5\x87\x86") != std::string_view::npos) {
      ev_.calibration_line = n;
    }
    device_ids(lo);
    if (!ev_.training_line && !ascii_ && zh_training(lo)) ev_.training_line = n;
    // Quantized weights named: a quantization word, or "bit" after 4 / 8 ("4-bit", "8 bit").
    if (!ev_.quantized_line && (lo.find("load_in_4bit") != std::string_view::npos || lo.find("load_in_8bit") != std::string_view::npos ||
                                lo.find("qlora") != std::string_view::npos)) {
      ev_.quantized_line = n;
    }
    // Weights quantized as they load: bitsandbytes' flags set on (not "--load_in_8bit False"), its config, or
    // LLaMA-Factory's "Quantizing model to 4 bit with bitsandbytes".
    if (!ev_.load_quantized_line) {
      for (std::string_view flag : {"load_in_4bit", "load_in_8bit", "bnb_4bit", "bitsandbytesconfig", "with bitsandbytes"}) {
        const size_t at = lo.find(flag);
        if (at != std::string_view::npos && (flag.rfind("load_in", 0) != 0 || !flag_set_off(lo, at + flag.size()))) {
          ev_.load_quantized_line = n;
          break;
        }
      }
    }
    if (!ev_.quantized_line && ((seen >> kWQuant) & 1u) != 0) {
      for (std::string_view q : {"4bit", "8bit", "4-bit", "8-bit", "4 bit", "8 bit", "int4", "int8", "gptq", "awq", "nf4",
                                 "bitsandbytes", "gguf", "qlora", "fp8", "float8"}) {
        if (lo.find(q) != std::string_view::npos) {
          ev_.quantized_line = n;
          break;
        }
      }
    }
    if (((seen >> kWLlmName) & 1u) != 0 && !ev_.llm_line) ev_.llm_line = n;
    if (((seen >> kWLlmName) & 1u) != 0 || lo.find("model") != std::string_view::npos || lo.find("param") != std::string_view::npos) {
      model_size(lo, n);
    }
    // vLLM's flag as typed: "--tensor-parallel-size 8" (the underscored setting is read above).
    if (const size_t tp = lo.find("tensor-parallel-size"); tp != std::string_view::npos && !tp_denied(lo.substr(0, tp))) {
      if (auto v = number_after(lo, tp + 20); v && *v > 0 && *v <= 4096) ev_.gpus.emplace_back(n, *v);
    }
    if (lo.find("vram") != std::string_view::npos || lo.find("should have") != std::string_view::npos ||
        lo.find("gpu memory") != std::string_view::npos) {
      stated_memory(lo);
    }
    if (lo.find("ram") != std::string_view::npos || lo.find("system") != std::string_view::npos ||
        lo.find("ddr") != std::string_view::npos || lo.find("host") != std::string_view::npos ||
        lo.find("cpu") != std::string_view::npos) {
      host_memory(lo);
    }
    // (These run on every line: each text through the line's pair filter, line_has().)
    auto line_has_any = [&](std::initializer_list<std::string_view> ts) {
      return std::any_of(ts.begin(), ts.end(), [&](std::string_view text) { return line_has(lo, text); });
    };
    // A Linux path or a SLURM job (Linux named as a word: the word loop above): not Windows' driver model.
    if (!ev_.linux_line && line_has_any({"/home/", "/root/", "/usr/", "slurm"})) ev_.linux_line = n;
    // (TensorFlow's "per_process_gpu_memory_fraction" holds "memory_fraction"; SGLang's "mem_fraction_static".)
    if (!ev_.memory_fraction_line && line_has_any({"memory_fraction", "mem_fraction"})) ev_.memory_fraction_line = n;
    if (!ev_.grad_disabled_line &&
        line_has_any({"set_grad_enabled(false)", "requires_grad_(false)", "requires_grad = false", "requires_grad=false"})) {
      ev_.grad_disabled_line = n;
    }
    // (A loss inside a name too: "byol_loss(p1, z2)", "loss_fn", "criterion(".)
    if (!ev_.loss_or_step_line && line_has_any({"loss", "criterion(", "backward(", "optimizer", "optim."})) ev_.loss_or_step_line = n;
    // A forward pass's outputs appended to a list inside a loop of inference code, autograd on: a model
    // put in eval mode (".eval()", which does not turn autograd off) or loaded pretrained on an earlier
    // code line, then a for-loop, then within kLoopBodyLines lines "list.append(x)", x bound in the
    // loop's body to the model's call not cut from the graph (not .item(), .cpu(), .detach(), .numpy()),
    // no no_grad / inference_mode / set_grad_enabled(False) before it and nothing trained (no loss,
    // backward or optimizer): each kept output holds its graph and the activations saved for it ("rep =
    // model.extract_features(wav)[0]; loop.append(rep)"). Not a loop variable appended ("for name in
    // os.listdir(d): paths.append(name)").
    // (autograd turned off globally, "torch.set_grad_enabled(False)", "requires_grad_(False)", counts as no_grad)
    if (!no_grad_seen_line_ && (((seen >> kWNoGrad) & 1u) != 0 || line_has(lo, "set_grad_enabled(false") ||
                                line_has(lo, "requires_grad_(false"))) {
      no_grad_seen_line_ = n;
    }
    // A comment line naming a pretrained model ("# Instantiate a pretrained EnCodec model"): the assignment
    // under it builds one.
    if (t.rfind("#", 0) == 0 && line_has(lo, "pretrained") && line_has(lo, "model")) pretrained_comment_line_ = n;
    if (code_line(lo)) {
      // The model's name on that line, where it reads: the identifier before ".eval()" / ".load_state_dict(",
      // or the name assigned a ".from_pretrained(" ("model = Longformer.from_pretrained(...)").
      auto identifier_before = [&](size_t end) {
        size_t b = end;
        while (b > 0 && (is_alpha(t[b - 1]) || is_digit(t[b - 1]) || t[b - 1] == '_')) --b;
        return std::string(t.substr(b, end - b));
      };
      if (!eval_mode_code_line_ && line_has(lo, ".eval()")) {
        eval_mode_code_line_ = n;
        if (const size_t e = t.find(".eval()"); e != std::string_view::npos) model_name_ = identifier_before(e);
      }
      // (A pretrained model loaded, "model = Longformer.from_pretrained(...)", "model.load_state_dict(...)":
      // ready for inference as well, where nothing trains.)
      // (Not a tokenizer's, processor's or config's: "AutoTokenizer.from_pretrained(...)".)
      const size_t fp = t.find(".from_pretrained(");
      const std::string loaded_class = fp == std::string_view::npos ? std::string() : identifier_before(fp);
      // (Also a pretrained model built by its own constructor under a comment that says so: "# Instantiate a
      // pretrained EnCodec model" over "model = EncodecModel.encodec_model_24khz()".)
      // (The model itself assigned, "model = ...": not a path or a directory named after it.)
      const bool pretrained_built = pretrained_comment_line_ > 0 && n - pretrained_comment_line_ <= 2 &&
                                    (t.rfind("model = ", 0) == 0 || t.rfind("self.model = ", 0) == 0) &&
                                    t.find('(') != std::string_view::npos &&
                                    !contains_any(lo, {"path", "dir", "download", "url"});
      if (!eval_mode_code_line_ && (fp != std::string_view::npos || line_has(lo, ".load_state_dict(") || pretrained_built) &&
          !contains_any(loaded_class, {"tokenizer", "processor", "config", "featureextractor", "feature_extractor",
                                       "scheduler"})) {
        eval_mode_code_line_ = n;
        if (const size_t e = t.find(".load_state_dict("); e != std::string_view::npos) {
          model_name_ = identifier_before(e);
        } else if (const size_t eq = t.find(" = "); eq != std::string_view::npos) {
          model_name_ = identifier_before(eq);
        }
      }
      if (t.rfind("for ", 0) == 0 && !t.empty() && t.back() == ':') {
        loop_code_line_ = n;
        loop_bound_.clear();
      }
      // The model's own call appended as it returns, in the loop body ("frames.append(model._decode_frame(codes))",
      // "outs.append(model(x))"): its output kept, as the assigned name's below.
      const bool model_call_appended =
          !model_name_.empty() && loop_code_line_ > 0 && n > loop_code_line_ && n - loop_code_line_ <= kLoopBodyLines &&
          (appends_prefix(t, model_name_ + "(") || appends_prefix(t, model_name_ + ".")) && !cut_from_graph(t);
      // The loop body's last assignment "name = <a call>": the name, where the value is a call's result not
      // cut from the graph or moved off the device (no .item(), .cpu(), .numpy(), .tolist(), .detach(),
      // float(), int(), str(), len()).
      if (loop_code_line_ > 0 && n > loop_code_line_ && n - loop_code_line_ <= kLoopBodyLines) {
        const size_t eq = t.find(" = ");
        if (eq != std::string_view::npos && eq > 0 && t.find('(', eq) != std::string_view::npos &&
            std::all_of(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(eq),
                        [](char c) { return is_alpha(c) || is_digit(c) || c == '_'; }) &&
            !cut_from_graph(t.substr(eq))) {
          // (The model's own call, where its name was read: "output = model(ids)", "rep = model.extract_features(wav)";
          // not "img = Image.open(path)".)
          const std::string_view value = t.substr(eq + 3);
          if (model_name_.empty() || value.find(model_name_ + "(") != std::string_view::npos ||
              value.find(model_name_ + ".") != std::string_view::npos) {
            loop_bound_ = std::string(t.substr(0, eq));
          }
        }
      }
      if (eval_mode_code_line_ > 0 && loop_code_line_ > eval_mode_code_line_ && n > loop_code_line_ &&
          n - loop_code_line_ <= kLoopBodyLines && !no_grad_seen_line_ && !ev_.loss_or_step_line && !ev_.training_line &&
          ((!loop_bound_.empty() && appends_name(t, loop_bound_)) || model_call_appended)) {
        add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.4,
            "a forward pass's outputs appended to a list in an inference loop, autograd on (model.eval() or a "
            "pretrained model's load at line " +
                std::to_string(eval_mode_code_line_) + ", no no_grad): " + shown(raw.substr(0, 160)));
      }
    }
    // The GPU's size in the user's words ("Nvidia gpu with 8gb", "GPU 12GB", "RTX 2080 11G", "a 16 GB
    // card"), not in the OOM message's own figures; in the plural, only the size attached to the GPUs
    // (plural_gpus_size()).
    if (((seen >> kWSetting) & 1u) != 0 && lo.find("gpus") != std::string_view::npos) plural_gpus_size(lo);
    if ((((seen >> kWGpuName) & 1u) != 0 || (((seen >> kWMem) & 1u) != 0 && lo.find("vram") != std::string_view::npos) ||
         (!ascii_ && lo.find("\xe5\x8d\xa1") != std::string_view::npos) ||  // 卡 (zh: a card: "双卡4090")
         ((lo.find("rtx") != std::string_view::npos || lo.find("gtx") != std::string_view::npos) && glued_gpu_model(lo))) &&
        lo.find("allocate") == std::string_view::npos && lo.find("capacity") == std::string_view::npos &&
        lo.find("allocated") == std::string_view::npos && lo.find("reserved") == std::string_view::npos) {
      named_memory(lo);
    }
    if (((seen >> kWGpuName) & 1u) != 0 || (((seen >> kWSetting) & 1u) != 0 && lo.find("gpus") != std::string_view::npos) ||
        lo.find("rtx") != std::string_view::npos || lo.find("gtx") != std::string_view::npos ||  // "5* RTX4090"
        (!ascii_ && (lo.find("\xe5\x8d\xa1") != std::string_view::npos || lo.find("\xe5\xbc\xa0") != std::string_view::npos ||
                     lo.find("\xe5\x9d\x97") != std::string_view::npos))) {  // 卡 / 张 / 块 (zh: cards, "8卡", "4张3090")
      gpu_count(lo, n);  // "on 8 GPUs": "gpus" is a setting's word
    }
    if (lo.size() < 160 && lo.find("mib") != std::string_view::npos && lo.find('|') != std::string_view::npos) {
      if (const auto row = smi_process_row(lo); row && ev_.smi_rows.size() < 256) {
        ev_.smi_rows.push_back({n, (*row)[0], (*row)[1], (*row)[2]});
      }
      // The GPU row's memory, used then total ("|  22870MiB / 24576MiB |").
      if (const size_t slash = lo.find("mib / "); slash != std::string_view::npos) {
        size_t b = slash;
        while (b > 0 && is_digit(lo[b - 1])) --b;
        if (b < slash && slash - b <= 7) {
          ev_.smi_used_mib = std::max(ev_.smi_used_mib, static_cast<int64_t>(std::stoll(std::string(lo.substr(b, slash - b)))));
        }
      }
    }
    if (lo.find("torch") != std::string_view::npos) {
      // 0.4 where it fails, not where it "runs fine" (the story is the other way round then).
      if (!ev_.torch03_line && torch_version_at(lo, "0.3") != std::string_view::npos) ev_.torch03_line = n;
      if (const size_t at = ev_.torch04_line ? std::string_view::npos : torch_version_at(lo, "0.4");
          at != std::string_view::npos && !version_works(lo, at)) {
        ev_.torch04_line = n;
      }
    }
    if (((seen >> kWStop) & 1u) != 0 || (lo.size() >= 2 && lo[0] == '^' && lo[1] == 'c')) job_stopped(lo, n);
    if (!ev_.no_autograd_line && ((seen >> kWNoAutograd) & 1u) != 0) ev_.no_autograd_line = n;
    // llama.cpp / ggml / Ollama by their own names ("ggml_cuda_pool_malloc", "llama_new_context", "Ollama
    // on Linux", "llama.cpp"): a native runtime's log.
    if (!ev_.native_runtime_named && ((seen >> kWNoAutograd) & 1u) != 0 && contains_any(lo, {"ggml", "ollama", "llama.cpp"})) {
      ev_.native_runtime_named = true;
    }
    // MLX by its package's names ("import mlx.core as mx", "mlx_lm.generate", "MLX 0.18").
    if (!ev_.mlx_named && ((seen >> kWNoAutograd) & 1u) != 0 && (contains_word(lo, "mlx") || contains_word(lo, "mlx_lm")) &&
        !named_as_not_used("mlx", lo)) {
      ev_.mlx_named = true;
    }
    // A command started (a shell prompt, a launcher): a stop or a Ctrl-C before it was another run's.
    if (std::string_view("$ptsadb").find(t[0]) != std::string_view::npos &&
        (t.rfind("$ ", 0) == 0 || t.rfind("python", 0) == 0 || t.rfind("torchrun ", 0) == 0 || t.rfind("srun ", 0) == 0 ||
         t.rfind("accelerate launch", 0) == 0 || t.rfind("deepspeed ", 0) == 0 || t.rfind("bash ", 0) == 0)) {
      ev_.command_lines.push_back(n);
    }
    // A serving engine's KV cache allocated up front (kv_cache_allocated()): on a traceback's code line
    // here (statement() reads the others).
    if (code_under_frame) kv_cache_allocated(raw, lo, n);
    // pandas' own frames ("File \".../site-packages/pandas/io/parsers/readers.py\""): a host-memory engine
    // ran (its reading in context_at(): no accelerator anywhere, host RAM).
    if (frame && !ev_.host_engine_line && (in_view(lo, "/pandas/") || in_view(lo, "\\pandas\\"))) {
      ev_.host_engine_line = n;
    }
    if (!attribution_told_) attribution_method(raw, lo, n);
    // A reinforcement-learning agent's replay memory (DQN's experience replay: Mnih et al., Nature 2015,
    // "Methods"; a replay buffer of transitions), which lives in host RAM and fills as it collects.
    if (!ev_.replay_memory_line && (line_has(lo, "repla") || line_has(lo, "dqn") || line_has(lo, "deepq")) &&
        (contains_any(lo, {"replay buffer", "replay memory", "replay_buffer", "replay_memory", "replaybuffer",
                           "replaymemory", "experience replay"}) ||
         contains_word_start(lo, "dqn") || contains_word_start(lo, "deepq"))) {
      ev_.replay_memory_line = n;
    }
    if (t[0] == '|') memory_summary_row(t, n);
    if (!ev_.gen_word_line && (seen & (uint64_t{1} << kWGenWord | uint64_t{1} << kWLlmGen)) != 0) ev_.gen_word_line = n;
    // CUDA's caching host allocator in a message or a frame ("THCCachingHostAllocator.cpp", "Exception raised from
    // allocate at ../aten/src/ATen/cuda/CachingHostAllocator.cpp"): pinned host memory.
    if (line_has(lo, "cachinghostallocator")) ev_.host_allocator_lines.push_back(n);
    // A GPU or another accelerator named anywhere, frames and code included ("images.cuda()",
    // ".../torch/cuda/__init__.py", "my 3090", "2x3090", "GeForce 1660", 显卡, "Radeon", "Gaudi",
    // "Apple M2": unified memory), until the first: LogContext::accelerator_line.
    // (Read on the log's first 2000 lines only: the reading serves reports told in words, which are short
    // posts; a longer log that has named no accelerator by then counts as naming one, -1, and withholds it.)
    if (ev_.device_named_line == 0) {
      if (n > 2000) ev_.device_named_line = -1;
      else if (lo.size() < 4096 && device_named(lo)) ev_.device_named_line = n;
    }
    // nn.Module.to's convert() body pasted alone (module_convert_line()): PyTorch's own code line, read as a
    // traceback's.
    if (frame || code_under_frame || (line_has(lo, "is_floating_point()") && module_convert_line(t))) {
      frame_facts(t, n, seen, frame);
      return;
    }
    if (seen & (uint64_t{1} << kWStep | uint64_t{1} << kWMem)) step_memory(lo, n, seen);
    statement(raw, lo, n, seen);
  }

 private:
  // A line of torch.cuda.memory_summary()'s table on the trimmed lower-cased line `t` (line n): its
  // header ("|   PyTorch CUDA memory summary, device ID 0   |") and its "| Allocated memory |    972 MiB
  // |   2160 MiB |   1358 GiB |   1358 GiB |" and "| GPU reserved memory | ..." rows: their Peak Usage
  // cell (the second), in the units torch.cuda.memory._format_size prints (B, KiB, MiB, GiB; "KB",
  // "MB", "GB" in 1.x, the same powers of 1024: size_at's MPS units). Rows within 40 lines of a
  // table's first belong to it.
  void memory_summary_row(std::string_view t, int64_t n) {
    if (const size_t d = t.find("memory summary, device id "); d != std::string_view::npos) {
      summary_header_line_ = n;
      summary_header_device_ = integer_at(t, d + 26).value_or(-1);
      return;
    }
    const bool allocated = t.rfind("| allocated memory ", 0) == 0;
    if (!allocated && t.rfind("| gpu reserved memory ", 0) != 0) return;
    // The second cell after the row's name: Peak Usage.
    const size_t cur = t.find('|', 1);
    const size_t peak = cur == std::string_view::npos ? cur : t.find('|', cur + 1);
    if (peak == std::string_view::npos) return;
    const std::string cell = squash(t.substr(peak + 1, t.find('|', peak + 1) - peak - 1));
    const auto size = size_at(cell, 0, /*mps_units=*/true);  // 1.x's KB / MB / GB are powers of 1024 too
    if (!size || size->overflow || size->end != cell.size()) return;
    auto& tables = ev_.memory_summaries;
    if (tables.empty() || n - tables.back().line > 40 ||
        (allocated ? tables.back().allocated_peak_bytes : tables.back().reserved_peak_bytes) != 0) {
      MemorySummaryTable m;
      m.line = n;
      if (summary_header_line_ > 0 && n - summary_header_line_ <= 10) m.device = summary_header_device_;
      tables.push_back(m);
    }
    (allocated ? tables.back().allocated_peak_bytes : tables.back().reserved_peak_bytes) = size->bytes;
  }

  // An attribution method named on the line `lo` (lower-cased `raw`, line n), in code, a frame or a
  // sentence, once per log: Captum's IntegratedGradients (and its Layer / Neuron forms) evaluates each
  // input at n_steps points (50 by default) in one forward and backward pass unless
  // internal_batch_size splits them (Captum's IntegratedGradients.attribute() docs), NoiseTunnel at
  // nt_samples noisy copies unless nt_samples_batch_size splits them, SmoothGrad likewise; SHAP's
  // DeepExplainer runs each input against every background sample at once, its GradientExplainer
  // nsamples (200) in chunks of batch_size (50). One input image becomes a batch of tens: the
  // micro-batch's activations. Not a method told replaced ("switching from IntegratedGradients to
  // Saliency fixed it").
  void attribution_method(std::string_view raw, std::string_view lo, int64_t n) {
    if (lo.find("grad") == std::string_view::npos && lo.find("explainer") == std::string_view::npos &&
        lo.find("noisetunnel") == std::string_view::npos) {
      return;
    }
    if (!contains_any(lo, {"integratedgradients", "integrated_gradients", "integrated gradients", "noisetunnel", "smoothgrad",
                           "gradientshap", "deepexplainer", "gradientexplainer"}) ||
        contains_any(lo, {"instead of", "switching from", "switched from", "replac"})) {
      return;
    }
    attribution_told_ = true;
    add(n, FactKind::kStatement, OomCause::kActivationsBatch, 0.3,
        "an attribution method evaluates each input as a batch (integrated gradients' n_steps, SmoothGrad's noisy "
        "samples, SHAP's background set) in one pass: " + shown(raw.substr(0, 160)));
  }

  // A serving engine's KV cache allocated up front, per layer, by heads, on the line `lo` (lower-cased
  // `raw`, line n): read on a traceback's code line (line()) and on any other line (statement()).
  // An IPython / Jupyter traceback's frame on the trimmed lower-cased line `t` (line()): "/path/file.py
  // in func(args)", "~/x.py in f(", "c:\\path\\x.py in f(", "<ipython-input-35-1a3bbd5216b5> in <module>",
  // "file /path/file.py:14, in func(args)", "cell in[35], line 7".
  static bool ipython_frame_line(std::string_view t) {
    if (t.size() < 8) return false;
    if (t.rfind("<ipython-input-", 0) == 0) return t.find("> in ") != std::string_view::npos;
    if (t.rfind("cell in", 0) == 0) {
      return (t[7] == '[' || t.compare(7, 2, " [") == 0) && t.find(", line ") != std::string_view::npos;
    }
    if (t.rfind("file ", 0) == 0 && t[5] != '"') {
      const size_t py = t.find(".py:");
      if (py == std::string_view::npos) return false;
      size_t e = py + 4;
      while (e < t.size() && is_digit(t[e])) ++e;
      return e > py + 4 && t.compare(e, 5, ", in ") == 0;
    }
    const bool path = t[0] == '/' || t[0] == '~' || (is_alpha(t[0]) && t[1] == ':' && t[2] == '\\');
    if (!path) return false;
    const size_t in = t.find(".py in ");
    if (in == std::string_view::npos || in + 7 >= t.size()) return false;
    const char c = t[in + 7];
    return (is_alpha(c) || c == '_' || c == '<') && t.find('(', in) != std::string_view::npos;
  }

  // The code after an IPython traceback's arrow ("----> 7     classes=2", "---> 20 return f(x)") on
  // the trimmed line `t`, or empty.
  static std::string_view ipython_arrow_code(std::string_view t) {
    size_t p = 0;
    while (p < t.size() && t[p] == '-') ++p;
    if (p == 0 || p >= t.size() || t[p] != '>') return {};
    ++p;
    while (p < t.size() && t[p] == ' ') ++p;
    const size_t d = p;
    while (p < t.size() && is_digit(t[p])) ++p;
    if (p == d || p >= t.size() || t[p] != ' ') return {};
    return trim_view(t.substr(p));
  }

  void kv_cache_allocated(std::string_view raw, std::string_view lo, int64_t n) {
    // "self.value_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device="cuda") for _ in
    // range(layer_num)]" (LightLLM's MemoryManager; vLLM's and lmdeploy's cache engines the same): a
    // tensor shaped (tokens, heads, head_dim) per layer is the K or V cache, sized by the engine's
    // token budget (max_total_token_num, gpu_memory_utilization), not the model's weights or a
    // batch's activations.
    auto has_in = [&](std::string_view x) { return lo.find(x) != std::string_view::npos; };
    if (has_in("head_dim") && (has_in("torch.empty(") || has_in("torch.zeros(")) &&
        (has_in("head_num") || has_in("num_heads") || has_in("num_kv_heads") || has_in("n_heads") ||
         has_in("num_key_value_heads")) &&
        (has_in("layer_num") || has_in("num_layers") || has_in("n_layers") || has_in("num_hidden_layers") ||
         has_in("value_buffer") || has_in("key_buffer") || has_in("kv_buffer") || has_in("k_cache") ||
         has_in("v_cache") || has_in("kv_cache") || has_in("key_cache") || has_in("value_cache"))) {
      add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.45,
          "a KV cache allocated up front, per layer, by heads (tokens x heads x head_dim): " + shown(raw.substr(0, 160)), 0,
          Told::kPrinted);
    }
  }

  void add(int64_t n, FactKind k, OomCause c, double w, std::string what, char phase = 0, Told told = Told::kByLine) {
    // A word repeated on every line (a "[rank3]:" prefix, "validation" in each progress line)
    // is one piece of weak evidence: keep one such fact per cause per 50 lines.
    if (k == FactKind::kStatement && w > 0 && w <= 0.1 && phase == 0) {
      int64_t& last = last_weak_[static_cast<size_t>(c)];
      if (last > 0 && n - last < 50) return;
      last = n;
    }
    Fact f;
    f.line = n;
    f.kind = k;
    f.cause = c;
    f.weight = w;
    f.what = std::move(what);
    f.phase = phase;
    f.process = static_cast<int32_t>(std::min<int64_t>(line_process_, INT32_MAX));
    f.prose = k == FactKind::kStatement && told != Told::kPrinted && (told == Told::kAccount || !code_line(line_lo_));
    ev_.facts.push_back(std::move(f));
  }

  // Caffe's cuDNN build told (LogContext::caffe_cudnn) by the token `w` ending at `after`:
  // Makefile.config's "USE_CUDNN := 1" (commented out, "# USE_CUDNN := 1", as the example file ships
  // it: off), CMake's -DUSE_CUDNN=ON / OFF, the net's log creating CuDNNConvolution layers (in use).
  void caffe_cudnn_told(std::string_view w, std::string_view lo, size_t after) {
    if (w != "use_cudnn") {  // a cuDNN layer's name
      ev_.caffe_cudnn = 1;
      return;
    }
    std::string_view v = lo.substr(after);
    while (!v.empty() && (v.front() == ' ' || v.front() == ':' || v.front() == '=')) v.remove_prefix(1);
    const bool on = v.rfind("1", 0) == 0 || v.rfind("on", 0) == 0;
    const bool off = v.rfind("0", 0) == 0 || v.rfind("off", 0) == 0;
    const std::string_view t = trim_view(lo);
    const bool commented = !t.empty() && t.front() == '#' && t.rfind("#include", 0) != 0;
    if (on && !commented) ev_.caffe_cudnn = 1;
    else if ((on && commented) || off) ev_.caffe_cudnn = ev_.caffe_cudnn == 1 ? 1 : -1;
  }

  void setting(std::string_view w, std::string_view lo, size_t after, int64_t n) {
    if (w == "model_name_or_path" || w == "model_name" || w == "model_id") {
      std::string m = known_model(lo.substr(after));
      if (!m.empty()) ev_.models.emplace_back(n, m);
      return;
    }
    // "batch size 16" / "batch_size=16"
    size_t pos = after;
    if (w == "batch" && lo.substr(after, 5) == " size") pos = after + 5;
    else if (w == "batch" && lo.substr(after, 5) == "-size") pos = after + 5;
    else if (w == "batch") return;
    auto v = number_after(lo, pos);
    if (!v || *v <= 0 || *v > 100000000) return;
    // A tensor-parallel size is the GPUs one model is split over (vLLM's tensor_parallel_size), when
    // set, not named as unused ("I can't use the tensor_parallel_size=8").
    const bool tp = w == "tensor_parallel_size" || w == "tp_size" || w == "model_parallel_size";
    if (tp && tp_denied(lo.substr(0, after))) return;
    if (tp && *v > 1 && !ev_.model_split_line) ev_.model_split_line = n;
    // Processes launched, a GPU each: mp.spawn's nprocs, accelerate launch's --num_processes.
    if (w == "num_gpus" || w == "n_gpu" || w == "gpus" || w == "world_size" || w == "nproc_per_node" || w == "nprocs" ||
        w == "num_processes" || tp) {
      ev_.gpus.emplace_back(n, *v);
    } else if (w == "max_length" || w == "sequence_length" || w == "block_size" || w == "max_len" || w == "cutoff_len" ||
               w == "context_length" || w == "model_max_length" || seq_setting_word(w)) {
      // (Two lengths on one line, "query_max_len 512, passage_max_len 8192": the longer one is what
      // the step's activations hold.)
      if (*v >= 8 && !ev_.seq.empty() && ev_.seq.back().first == n) {
        ev_.seq.back().second = std::max(ev_.seq.back().second, *v);
      } else if (*v >= 8) {
        ev_.seq.emplace_back(n, *v);
      }
    } else {
      ev_.batch.emplace_back(n, *v);
    }
  }

  // The words before "older" / "earlier" / "below" that tell the versions up to one working ("0.9.11 and older
  // are fine"): the line's gate for statement() and for the regression reading (regression_told() reads the
  // whole phrase, kUpToOneWorking).
  static constexpr std::string_view kUpToOneGate[] = {" and older", " and earlier", " and below", " or older", " or earlier"};

  // A run told failing at a batch of one ("I input batchsize 1 for one gpu, but out of memory", "batch_size=1
  // still OOMs", "even with a batch size of 1 it runs out"): a batch setting of any spelling set to 1 in the
  // clause `c` (batch_one_named()), a failure or its persistence told on its line `line`. Not a
  // batch lowered to one as the fix or the way round it ("reducing the batch size to 1 fixed it", "I had to
  // decrease batch size to 1 to avoid cuda OOM").
  static constexpr std::string_view kLoweredWords[] = {"reduce", "reduced", "reducing", "decrease", "decreased", "decreasing",
                                                       "lower", "lowered", "lowering"};
  static bool batch_of_one_fails(std::string_view c, std::string_view line) {
    // (The fix's words whole: not "slower", "reduction", "fixed 128 crops", "fixed-size".)
    if (!contains_any(line, {" but", "still", "even", "out of memory", "oom", "error"}) ||
        contains_any(line, {"fixed it", "fixes it", "fixed the", "fixed this", "that fixed", "which fixed", "this fixed",
                            "is fixed", "was fixed", "solved", "works now", "it works", "runs now", "resolved", "to avoid"}) ||
        std::any_of(std::begin(kLoweredWords), std::end(kLoweredWords), [&](std::string_view w) { return contains_word(line, w); })) {
      return false;
    }
    // (Nor one told working, batch_one_worked(): "the model fits fine with batch size of 1".)
    return batch_one_named(c) && !batch_one_worked(line);
  }

  // A count under 50 of iterations or steps right after "after" ("after 5 iterations", "only after 20
  // steps", "after the first 10 iterations"): the first steps, no long run; where no epochs or hours
  // are told and no count of 50 or more of them is ("validating every 10 steps ... after 20000
  // iterations" is a long run).
  static bool few_steps_told(std::string_view lo) {
    if (lo.find(" epochs") != std::string_view::npos || lo.find(" hours") != std::string_view::npos) return false;
    bool few = false;
    for (const ProseCount& c : prose_counts(lo)) {
      const std::string_view unit = lo.substr(c.end);
      if (unit.rfind(" iterations", 0) != 0 && unit.rfind(" steps", 0) != 0 && unit.rfind(" iters", 0) != 0) continue;
      if (c.value >= 50) return false;  // a long run told on the line
      if (count_told_after(lo, c)) few = true;
    }
    return few;
  }

  // Every growth word of `lo` (lower-cased) in a question of what would happen ("will it increase
  // ...?", "would the memory grow ...?", "if I raise it, does it increase ...?"), none outside one,
  // none asked why it grows or whether it leaks.
  static bool growth_only_supposed(std::string_view lo) {
    bool any = false;
    for (std::string_view w : {"increas", "grow", "grew", "rising", "rises", "climb", "creep", "crept", "accumulat", "increment"}) {
      for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
        any = true;
        const std::string_view c = clause_at(lo, p);
        if (!asks(c) || contains_any(c, {"why", "how come", "leak", "normal", "expected"}) ||
            !contains_any(c, {"will it", "will the", "would it", "would the", "does it", "does the", "do they", "can it",
                              "could it", "if i ", "if we ", "is it going to"})) {
          return false;
        }
      }
    }
    return any;
  }

  // "fit" at lo[i, j) as the training call of Keras, Lightning or scikit-learn: a method called
  // ("model.fit(", "trainer.fit(model)", "fit()"), named as the call ("when I call `fit`", "during
  // fit", "calling fit") or the verb with a model as its object ("I fit the model on 8 GPUs"); not
  // the English verb of size ("should fit within 80GB", "it doesn't fit").
  static bool fit_called(std::string_view lo, size_t i, size_t j) {
    if ((i > 0 && lo[i - 1] == '.') || (j < lo.size() && lo[j] == '(')) return true;
    // The verb with the model as its object ("I fit the model on 8 GPUs", "when I fit my network").
    size_t k = j;
    while (k < lo.size() && lo[k] == ' ') ++k;
    for (std::string_view det : {"the ", "a ", "my ", "our ", "this "}) {
      if (lo.compare(k, det.size(), det) != 0) continue;
      size_t e = k + det.size();
      while (e < lo.size() && word_char(lo[e])) ++e;
      const std::string_view object = lo.substr(k + det.size(), e - k - det.size());
      if (object == "model" || object == "network" || object == "net" || object == "classifier" || object == "estimator") return true;
    }
    size_t b = i;
    while (b > 0 && (lo[b - 1] == ' ' || lo[b - 1] == '`' || lo[b - 1] == '"' || lo[b - 1] == '\'')) --b;
    size_t a = b;
    while (a > 0 && word_char(lo[a - 1])) --a;
    const std::string_view before = lo.substr(a, b - a);
    return before == "call" || before == "calling" || before == "called" || before == "during" || before == "running";
  }

  // A batch size named in a launch script's or config's file name ("./scripts/launch_BigGAN_bs256x8.sh",
  // "r50_bs64_coco.yaml", "finetune-llama7b-bs32.sh", fairseq's "train_bsz64.sh"): "bs" or "bsz" after "_" or
  // "-", its digits, in a name that ends in a script's or config's extension, read as setting()'s
  // "batch_size=256" is. Not a decoding script's beam size ("decode_bs5.sh"). The first such name on
  // the line `lo` (lower-cased), line number `n`.
  void batch_in_file_name(std::string_view lo, int64_t n) {
    for (size_t at = lo.find("bs"); at != std::string_view::npos; at = lo.find("bs", at + 2)) {
      if (at == 0 || (lo[at - 1] != '_' && lo[at - 1] != '-')) continue;
      size_t d = at + 2;
      if (d < lo.size() && lo[d] == 'z') ++d;
      const size_t digits = d;
      while (d < lo.size() && is_digit(lo[d])) ++d;
      if (d == digits || d - digits > 6) continue;
      size_t e = d;
      while (e < lo.size() && (word_char(lo[e]) || lo[e] == '-')) ++e;
      bool file = false;
      for (std::string_view ext : {".sh", ".py", ".yaml", ".yml", ".json", ".cfg", ".toml"}) {
        file = file || (lo.compare(e, ext.size(), ext) == 0 && (e + ext.size() >= lo.size() || !word_char(lo[e + ext.size()])));
      }
      size_t name = at;
      while (name > 0 && (word_char(lo[name - 1]) || lo[name - 1] == '-')) --name;
      const std::string_view file_name = lo.substr(name, e - name);
      if (!file || file_name.find("decod") != std::string_view::npos || file_name.find("beam") != std::string_view::npos) continue;
      if (const auto v = integer_at(lo, digits); v && *v > 0) ev_.batch.emplace_back(n, *v);
      return;
    }
  }

  // An nvidia-smi process row, lower-cased ("|    0   N/A  N/A    40112      C   python      384MiB |",
  // the older "|    0     40112      C   python      384MiB |"): the GPU's index, the MiB the process
  // holds and 1 where it is a compute process (type C or C+G; 0 for a graphics-only G: a desktop's
  // Xorg, a browser); nullopt for any other line.
  static std::optional<std::array<int64_t, 3>> smi_process_row(std::string_view lo) {
    std::vector<std::string_view> t;
    for_each_token(lo, [&](size_t i, size_t j) {
      t.push_back(lo.substr(i, j - i));
      return t.size() < 40;  // (a process's full path is many tokens: "/opt/conda/envs/x/bin/python")
    });
    if (t.size() < 5 || !std::all_of(t.front().begin(), t.front().end(), is_digit) || t.front().size() > 2) return std::nullopt;
    const std::string_view last = t.back();
    if (last.size() < 4 || last.substr(last.size() - 3) != "mib") return std::nullopt;
    const std::string_view mib = last.substr(0, last.size() - 3);
    if (mib.empty() || mib.size() > 7 || !std::all_of(mib.begin(), mib.end(), is_digit)) return std::nullopt;
    // A process type (C, G) and a PID among the columns between.
    bool type = false, pid = false, compute = false;
    for (size_t k = 1; k + 1 < t.size(); ++k) {
      type = type || t[k] == "c" || t[k] == "g" || t[k] == "c+g";
      compute = compute || t[k] == "c" || t[k] == "c+g";
      pid = pid || (t[k].size() >= 2 && std::all_of(t[k].begin(), t[k].end(), is_digit));
    }
    if (!type || !pid || lo.find("| ") == std::string_view::npos) return std::nullopt;
    return std::array<int64_t, 3>{std::stoll(std::string(t.front())), std::stoll(std::string(mib)), compute ? 1 : 0};
  }

  // Text `c` (lower-cased) that denies what it names ("is not", "isn't", "wasn't", "not the problem", "not
  // related"): statement() reads it over the whole line (`negated`), some readings clause by clause.
  // (Not a shortfall told, which denies nothing the line names: "I reduced the batch size to 1, but
  // it is not enough", "24GB isn't sufficient"; "is not enough to explain it" still denies.)
  static bool clause_negated(std::string_view c) {
    if (contains_any(c, {"not the problem", "not the issue", "not the cause", "not related"})) return true;
    for (std::string_view neg : {"is not", "isn't", "wasn't"}) {
      for (size_t p = c.find(neg); p != std::string_view::npos; p = c.find(neg, p + 1)) {
        std::string_view after = c.substr(p + neg.size());
        while (!after.empty() && after.front() == ' ') after.remove_prefix(1);
        for (std::string_view filler : {"big ", "large ", "quite "}) {
          if (after.substr(0, filler.size()) == filler) after.remove_prefix(filler.size());
        }
        // (... unless a purpose follows, "is not enough to explain it": a denial.)
        const size_t word = after.substr(0, 6) == "enough" ? 6 : after.substr(0, 10) == "sufficient" ? 10 : 0;
        if (word > 0 && after.substr(word, 4) != " to ") continue;
        return true;
      }
    }
    return false;
  }

  // Many atoms named on the lower-cased line `lo` (statement()): a count of 500 or more before "atoms" /
  // "-atom" / " atom " ("1216 atoms", "50k-atom", "20,000 atoms"), or "million(s) (of) atom(s)", "thousands
  // of atoms".
  static bool many_atoms(std::string_view lo) {
    // "atom" / "atoms" as the word, not "atomic" / "atomics".
    auto atom_word = [](std::string_view at) {
      return at.substr(0, 4) == "atom" &&
             (at.size() == 4 || !is_alpha(at[4]) || (at[4] == 's' && (at.size() == 5 || !is_alpha(at[5]))));
    };
    for (std::string_view ph : {"million atom", "million-atom", "millions of atom", "thousands of atom", "billion atom"}) {
      const size_t p = lo.find(ph);
      if (p != std::string_view::npos && atom_word(lo.substr(p + ph.size() - 4))) return true;
    }
    for (const ProseCount& n : prose_counts(lo)) {
      std::string_view after = lo.substr(n.end);
      double scale = 1;
      if (!after.empty() && (after.front() == 'k' || after.front() == 'm')) {
        scale = after.front() == 'k' ? 1e3 : 1e6;
        after.remove_prefix(1);
      }
      if (!after.empty() && (after.front() == ' ' || after.front() == '-')) after.remove_prefix(1);
      if (atom_word(after) && n.value * scale >= 500) return true;
    }
    return false;
  }

  // A model's parameter count told in millions on the lower-cased line `lo`: a number, then "m" or
  // "million" (a space or a hyphen between or not), then "params" / "parameters" ("1.8M parameters",
  // "20 million params", "1,200 million parameters"); the first one, in millions.
  static std::optional<double> millions_of_parameters(std::string_view lo) {
    for (const ProseCount& n : prose_counts(lo)) {
      std::string_view after = lo.substr(n.end);
      if (!after.empty() && after.front() == ' ') after.remove_prefix(1);
      for (std::string_view unit : {"million ", "m ", "m-"}) {
        if (after.substr(0, unit.size()) == unit && after.substr(unit.size(), 5) == "param") return n.value;
      }
    }
    return std::nullopt;
  }

  // A tensor-parallel setting named as not used: a denial in the words before it on its line.
  static bool tp_denied(std::string_view before) {
    for (std::string_view d : {"can't", "cannot", "can not", "couldn't", "don't", "not ", "without", "no "}) {
      if (before.find(d) != std::string_view::npos) return true;
    }
    return false;
  }

  // "7B", "Llama3.1 8B", "llama-2-13b", "1.1B params": a model's parameter count in billions.
  // Mixtral's "8x7B" / "8x22B" are its published totals (46.7B, 141B: the experts share attention).
  void model_size(std::string_view lo, int64_t n) {
    if (lo.find("mixtral") != std::string_view::npos) {
      const int64_t moe = lo.find("8x7b") != std::string_view::npos    ? int64_t{46700000000}
                          : lo.find("8x22b") != std::string_view::npos ? int64_t{141000000000}
                                                                       : 0;
      if (moe > 0) {
        ev_.params.emplace_back(n, moe);
        return;
      }
    }
    for (size_t p = 0; p < lo.size(); ++p) {
      if (!is_digit(lo[p])) continue;
      // The size opening its token, or glued to an LLM family's name ("baichuan13b", "qwen7b").
      if (p > 0 && (word_char(lo[p - 1]) || lo[p - 1] == '.') && lo[p - 1] != '_') {
        size_t b = p;
        while (b > 0 && is_alpha(lo[b - 1])) --b;
        const std::string_view family = lo.substr(b, p - b);
        if ((b > 0 && word_char(lo[b - 1])) ||
            std::find(std::begin(kLlmFamilies), std::end(kLlmFamilies), family) == std::end(kLlmFamilies)) {
          continue;
        }
      }
      size_t e = p;
      while (e < lo.size() && (is_digit(lo[e]) || lo[e] == '.')) ++e;
      size_t u = e;
      if (u < lo.size() && lo[u] == ' ') ++u;
      // (Not a count of tokens, images or pairs, "pretraining on 14B tokens", a dataset's name, "LAION-2B", nor
      // a distillation's teacher, "distilled from an 8B teacher": no size of the model that runs.)
      const std::string_view after_b = u + 1 < lo.size() ? lo.substr(u + 1, 12) : std::string_view();
      const bool not_the_model = contains_any(after_b, {" token", " image", " pair", " sample", " teacher", "-teacher"}) ||
                                 (p >= 6 && lo.compare(p - 6, 6, "laion-") == 0);
      // (Also the count in words: "the 8 billion parameter EVA CLIP model", "a 14-billion-parameter DiT", "14
      // billions parameters", "14 bn parameter", "14 billion trainable parameters"; not "a 70 billion parameter
      // teacher".)
      const size_t w = u < lo.size() && lo[u] == '-' ? u + 1 : u;
      size_t bw = 0;
      for (std::string_view word : {"billions", "billion", "bn"}) {
        if (lo.compare(w, word.size(), word) == 0) {
          bw = word.size();
          break;
        }
      }
      size_t pw = w + bw;
      if (bw > 0 && lo.compare(pw, 10, " trainable") == 0) pw += 10;
      const bool billion_params = bw > 0 && (lo.compare(pw, 6, " param") == 0 || lo.compare(pw, 6, "-param") == 0) &&
                                  !contains_any(lo.substr(pw, 24), {" teacher", "-teacher", " token"});
      if (!not_the_model &&
          ((u < lo.size() && lo[u] == 'b' && (u + 1 >= lo.size() || !word_char(lo[u + 1]))) || billion_params)) {
        double billions = 0;
        try {
          billions = std::stod(std::string(lo.substr(p, e - p)));
        } catch (...) {
          billions = 0;
        }
        if (billions >= 0.1 && billions <= 2000) {
          ev_.params.emplace_back(n, static_cast<int64_t>(billions * 1e9));
          return;
        }
      }
      p = e;
    }
  }

  // Each size stated in prose on the lower-cased line `lo` (prose_number_at(), log_text): a number
  // of at most 12 characters with a memory unit. `fn` gets the number, the unit's size in bytes
  // (kMiB, kGiB or kTiB), the number's length in chars and whether the size is tagged as the
  // host's (host_tagged_size()), and where the number starts.
  template <class Fn>
  static void for_each_prose_size(std::string_view lo, Fn&& fn) {
    for (size_t p = 0; p < lo.size(); ++p) {
      const std::optional<ProseNumber> n = prose_number_at(lo, p);
      if (!n) continue;
      if (n->unit_bytes > 0 && n->chars <= 12) fn(n->value, n->unit_bytes, n->chars, host_tagged_size(lo, p, n->end), p);
      p = n->end > p ? n->end - 1 : p;
    }
  }

  // A GPU or another accelerator named on the lower-cased line `lo`: gpu_named() (GPU, CUDA, a card's
  // model or number, GeForce, Quadro, TITAN, 显卡 / 显存), a model glued to its family's prefix or
  // counted before it ("rtx4090", "2x3090", "8xA100"), NVIDIA, nvidia-smi, VRAM, an AMD Radeon or
  // Instinct, Intel's XPU / Arc / IPEX / Gaudi / HPU, an NPU, Ascend, Jetson, Apple's MPS or M-series
  // chips, a DGX, a cloud GPU instance (g4dn, g5, p3, p4d, p5), device placement (device_map, "device
  // 0", DeepSpeed); a consumer card's number alone ("my 2070 Super", "AMD 7900XTX") is gpu_named()'s.
  static bool device_named(std::string_view lo) {
    if (gpu_named(lo) || glued_gpu_model(lo)) return true;
    // (Whole words: "ascending", "p50", "instinctively" name none.)
    for (std::string_view w : {"nvidia", "vram", "radeon", "instinct", "xpu", "hpu", "gaudi", "npu", "ascend", "jetson", "mps",
                               "macbook", "ipex", "dgx", "device_map", "deepspeed", "g4dn", "p4d", "p4de", "p5"}) {
      if (contains_word(lo, w)) return true;
    }
    for (std::string_view m : {"apple m1", "apple m2", "apple m3", "apple m4", "apple silicon", "intel arc", "device 0",
                               "device 1", " g5.", " g6.", " p3.", " p5."}) {
      if (lo.find(m) != std::string_view::npos) return true;
    }
    // A count glued before a GPU's model: "2x3090", "8xa100" (one or two digits from a word's start: not
    // a resolution's "1920x1080").
    for (size_t p = lo.find('x'); p != std::string_view::npos; p = lo.find('x', p + 1)) {
      if (p == 0 || !is_digit(lo[p - 1]) || p + 1 >= lo.size() || !(is_alpha(lo[p + 1]) || is_digit(lo[p + 1]))) continue;
      size_t d = p;
      while (d > 0 && is_digit(lo[d - 1])) --d;
      if (p - d > 2 || !word_starts_at(lo, d)) continue;
      size_t e = p + 1;
      while (e < lo.size() && (is_alpha(lo[e]) || is_digit(lo[e]))) ++e;
      if (gpu_named(lo.substr(p + 1, e - p - 1))) return true;
    }
    return false;
  }

  // "other people" on the lower-cased line `lo` with a denial in the 40 bytes before it ("is not shared
  // with other people", "no other people use it").
  static bool other_people_denied(std::string_view lo) {
    const size_t p = lo.find("other people");
    if (p == std::string_view::npos) return false;
    const size_t from = p > 40 ? p - 40 : 0;
    const std::string_view before = lo.substr(from, p - from);
    return contains_any(before, {"not ", "n't ", "never ", "nobody"}) || (p >= 3 && lo.compare(p - 3, 3, "no ") == 0);
  }

  // A "still" on the lower-cased line `lo` that says the failure goes on: a word of failure right after
  // it, "be" / "is" / "was" / "gets" / "get" / "got" aside ("I still get OOM", "the process is still be
  // killed", "it still crashes", "still out of memory"): no memory held. Not "still not killed", "still
  // held after the crash".
  static bool still_fails(std::string_view lo) {
    for (size_t p = lo.find("still"); p != std::string_view::npos; p = lo.find("still", p + 5)) {
      if (!is_word_at(lo, p, 5)) continue;
      std::string_view after = lo.substr(p + 5);
      while (!after.empty() && after.front() == ' ') after.remove_prefix(1);
      for (int k = 0; k < 2; ++k) {
        for (std::string_view aux : {"be ", "is ", "was ", "gets ", "get ", "got "}) {
          if (after.rfind(aux, 0) == 0) {
            after.remove_prefix(aux.size());
            break;
          }
        }
      }
      for (std::string_view f : {"kill", "crash", "fail", "oom", "error", "out of memory", "run out", "runs out", "ran out"}) {
        if (after.rfind(f, 0) == 0) return true;
      }
    }
    return false;
  }

  // nn.Module.to's convert() body as PyTorch writes it ("return t.to(device, dtype if t.is_floating_point()
  // or t.is_complex() else None, non_blocking)" in Module.to), on the trimmed line `t`: not a user's helper
  // of the same shape (a "def" on the line, non_blocking passed by name).
  static bool module_convert_line(std::string_view t) {
    return t.find("t.to(") != std::string_view::npos && t.find("dtype if t.is_floating_point()") != std::string_view::npos &&
           t.find("def ") == std::string_view::npos && t.find("non_blocking=") == std::string_view::npos;
  }

  // A value cut from the autograd graph or moved off the device on the code line: ".item()", ".cpu()",
  // ".numpy()", ".tolist()", ".detach()", float(), int(), str(), len().
  static bool cut_from_graph(std::string_view t) {
    return contains_any(t, {".item()", ".cpu()", ".numpy()", ".tolist()", ".detach()", "float(", "int(", "str(", "len("});
  }

  // The trimmed code line `t` appending an expression that opens with `prefix` to a list:
  // "frames.append(model._decode_frame(codes))", "frames += [model._decode_frame(codes)]" or
  // "frames.extend([model._decode_frame(codes)])" for "model.";
  // the model held on self ("self.model._decode_frame(codes)") as well.
  static bool appends_prefix(std::string_view t, std::string_view prefix) {
    size_t a = t.find(".append(");
    if (a != std::string_view::npos && a > 0) {
      a += 8;
    } else if (a = t.find(".extend(["); a != std::string_view::npos && a > 0) {
      a += 9;
    } else if (a = t.find("+="); a != std::string_view::npos && a > 0) {
      a += 2;
      while (a < t.size() && t[a] == ' ') ++a;
      if (a >= t.size() || t[a] != '[') return false;
      ++a;
    } else {
      return false;
    }
    while (a < t.size() && t[a] == ' ') ++a;
    std::string_view value = t.substr(a);
    if (value.rfind("self.", 0) == 0) value.remove_prefix(5);
    return value.rfind(prefix, 0) == 0;
  }

  // The trimmed code line `t` appending `name` (or an index of it) to a list: "list.append(name)",
  // "outs.append(name[0])"; nothing done to it inside the call (not name.cpu(), name.item()).
  static bool appends_name(std::string_view t, std::string_view name) {
    const size_t a = t.find(".append(");
    if (a == std::string_view::npos || a == 0) return false;
    const size_t b = a + 8, e = t.find(')', b);
    if (e == std::string_view::npos || e == b) return false;
    const std::string_view arg = t.substr(b, e - b);
    if (arg.rfind(name, 0) != 0) return false;
    const std::string_view rest = arg.substr(name.size());
    return rest.empty() || rest.front() == '[';
  }

  // A package's or native extension's build named on the lower-cased line `lo`: pip's "building wheel(s)",
  // "building extension", setuptools' "setup.py install / build / develop", the compiler's own process
  // (cc1plus), the job count it is told to use (MAX_JOBS, "make -j", "ninja -j"), "cargo build", "rebar3
  // compile", "mix compile".
  static bool build_jobs_named(std::string_view lo) {
    return contains_any(lo, {"building wheel", "building extension", "setup.py install", "setup.py build",
                             "setup.py develop", "cc1plus", "max_jobs", "make -j", "ninja -j", "cargo build",
                             "rebar3 compile", "mix compile"});
  }

  // The word at lo[p], after "multi-" / "multi ": one of devices, nodes or ranks ("gpu", "node", "card",
  // "rank", "machine", "host") or a GPU's model. Not "process", "worker" or "instance": a DataLoader's
  // multi-process / multi-worker loading runs on the host, a Multi-Instance GPU slice is one device's.
  static bool multi_of_devices(std::string_view lo, size_t p) {
    size_t e = p;
    while (e < lo.size() && (is_alpha(lo[e]) || is_digit(lo[e]))) ++e;
    const std::string_view next = lo.substr(p, e - p);
    for (std::string_view d : {"gpu", "gpus", "node", "nodes", "card", "cards", "device", "devices", "rank", "ranks",
                               "machine", "machines", "host", "hosts", "accelerator", "accelerators", "tpu", "tpus", "npu",
                               "npus"}) {
      if (next == d) return true;
    }
    return gpu_named(next) || glued_gpu_model(next);
  }

  // A GPU's model written glued to its family's prefix on the lower-cased line `lo`: "rtx" or "gtx"
  // where a word starts, then a digit, or "a" and a digit ("rtx4090", "rtxa6000", "gtx1080ti").
  static bool glued_gpu_model(std::string_view lo) {
    for (std::string_view family : {"rtx", "gtx"}) {
      for (size_t p = lo.find(family); p != std::string_view::npos; p = lo.find(family, p + 3)) {
        if (!word_starts_at(lo, p)) continue;
        size_t d = p + 3;
        if (d < lo.size() && lo[d] == 'a') ++d;
        if (d < lo.size() && is_digit(lo[d])) return true;
      }
    }
    return false;
  }

  // The size at lo[p] told as memory taken, needed or left, not a device's: a verb of use, need or growth
  // right before it, fillers aside ("take up almost 40GB", "uses about 20 GB", "consumed ~30GB", "needs
  // over 24GB", "occupying 11G", "grows to 40GB", "peaks at 40GB"), or "used" / "in use" right after
  // it ("nvidia-smi shows 40GB VRAM used"). Not "using" / "used" before it: "I am using 80GB A100
  // GPUs" names the card.
  static bool usage_or_rest_told_at(std::string_view lo, size_t p) {
    {
      size_t e = p;
      while (e < lo.size() && (is_digit(lo[e]) || lo[e] == '.' || is_alpha(lo[e]))) ++e;  // the size and its unit
      std::string_view rest = lo.substr(e, 24);
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      for (std::string_view what : {"of vram ", "vram ", "of gpu memory ", "gpu memory ", "of memory ", "memory "}) {
        if (rest.substr(0, what.size()) == what) rest.remove_prefix(what.size());
      }
      if (rest.substr(0, 4) == "used" || rest.substr(0, 6) == "in use") return true;
      // ... or what is left: "12G of free memory", "12GB free", "12GB left" (not "available": "my GPU with
      // 24GB VRAM available" states the card).
      for (std::string_view left : {"of free", "free", "left", "remaining", "still free"}) {
        if (rest.substr(0, left.size()) == left && (rest.size() == left.size() || !is_alpha(rest[left.size()]))) return true;
      }
    }
    std::string_view before = lo.substr(p >= 40 ? p - 40 : 0, p >= 40 ? 40 : p);
    auto trim = [&] {
      while (!before.empty() && (before.back() == ' ' || before.back() == '~')) before.remove_suffix(1);
    };
    trim();
    for (bool again = true; again;) {
      again = false;
      for (std::string_view filler : {"almost", "about", "around", "nearly", "roughly", "approximately", "approx.", "over",
                                      "up to", "more than", "already", "just", "only", "a whopping"}) {
        if (before.size() >= filler.size() && before.substr(before.size() - filler.size()) == filler &&
            (before.size() == filler.size() || !word_char(before[before.size() - filler.size() - 1]))) {
          before.remove_suffix(filler.size());
          trim();
          again = true;
        }
      }
    }
    for (std::string_view verb : {"take up", "takes up", "took up", "taking up", "take", "takes", "took", "uses", "would use",
                                  "will use",
                                  "consumes", "consumed", "consuming", "occupies", "occupied", "occupying", "allocates",
                                  "allocated", "eats", "ate", "eating", "need", "needs", "needed", "require", "requires",
                                  "required", "grows to", "grew to", "growing to", "peaks at", "peaked at", "reaches",
                                  "reached", "goes up to", "went up to", "climbs to", "climbed to"}) {
      if (before.size() >= verb.size() && before.substr(before.size() - verb.size()) == verb &&
          (before.size() == verb.size() || !word_char(before[before.size() - verb.size() - 1]))) {
        return true;
      }
    }
    return false;
  }

  // The size at lo[p, end) is the host's by the word next to it: "64GB RAM", "32 GB DDR4", "64GB of
  // system memory", "RAM: 64GB", "RAM 64 GB" (not "GPU RAM: 24GB", "24GB GPU RAM", "VRAM 24GB").
  static bool host_tagged_size(std::string_view lo, size_t p, size_t end) {
    size_t a = end;
    while (a < lo.size() && (lo[a] == ' ' || lo[a] == ')')) ++a;
    if (lo.compare(a, 3, "of ") == 0) a += 3;
    size_t b = a;
    while (b < lo.size() && word_char(lo[b])) ++b;
    const std::string_view after = lo.substr(a, b - a);
    for (std::string_view w : {"ram", "ddr3", "ddr4", "ddr5", "system", "host", "cpu"}) {
      if (after == w) return true;
    }
    // A machine's listing, a count of its CPUs then its memory, separators alone between ("Standard
    // NC24ads A100 v4 (24 vcpus, 220 GiB memory)", "n1-standard-8 (8 vCPUs, 30 GB memory)", "16 CPUs,
    // 64 GB"): the host's, as a cloud machine type is given. Not a GPU's size after it ("(8 vCPUs,
    // 1x A100 80GB)", "16 CPUs and an RTX 3090 24GB", "24GB VRAM"), nor "10496 CUDA cores, 24GB".
    if (!in_list(after, {"vram", "gpu", "video", "graphics"})) {
      size_t c = p;
      while (c > 0 && (lo[c - 1] == ' ' || lo[c - 1] == ',' || lo[c - 1] == ';')) --c;
      size_t w = c;
      while (w > 0 && is_alpha(lo[w - 1])) --w;
      const std::string_view cpu_word = lo.substr(w, c - w);
      size_t d = w;
      while (d > 0 && lo[d - 1] == ' ') --d;
      const bool counted = c > w && d < w && d > 0 && is_digit(lo[d - 1]);
      if (counted && c < p && in_list(cpu_word, {"vcpu", "vcpus", "cpu", "cpus", "cores", "threads"})) return true;
    }
    // "RAM" just before: "RAM: 64GB", "ram=64 gb", "RAM 64 GB", not "GPU RAM" / "video RAM".
    size_t q = p;
    while (q > 0 && (lo[q - 1] == ' ' || lo[q - 1] == ':' || lo[q - 1] == '=')) --q;
    if (q >= 3 && lo.compare(q - 3, 3, "ram") == 0 && (q == 3 || !word_char(lo[q - 4]))) {
      size_t r = q - 3;
      while (r > 0 && lo[r - 1] == ' ') --r;
      size_t s = r;
      while (s > 0 && word_char(lo[s - 1])) --s;
      const std::string_view before = lo.substr(s, r - s);
      return before != "gpu" && before != "video" && before != "graphics" && before != "device";
    }
    return false;
  }

  // Sizes next to "VRAM" / "should have": the memory the user expects the device to have (the
  // largest from 1 GiB up; not a size tagged as the host's, "VRAM 24GB, RAM 64GB").
  void stated_memory(std::string_view lo) {
    for_each_prose_size(lo, [&](double v, int64_t unit_bytes, size_t, bool host_tagged, size_t) {
      const double bytes = v * static_cast<double>(unit_bytes);
      if (bytes >= static_cast<double>(kGiB) && bytes < 1e15 && !host_tagged) {
        ev_.stated_device_bytes = std::max(ev_.stated_device_bytes, static_cast<int64_t>(bytes));
      }
    });
  }

  // Sizes tagged as the host's ("a Desktop with 8GB RAM", "RAM: 16 GB", "32 GB DDR4", "64GB of system
  // memory"; host_tagged_size()): the machine's RAM, the largest from 1 GiB up. Not a GPU's named
  // before it in its clause ("Tesla V100-SXM2 with 16GB RAM"), nor RAM told used, needed or left ("the
  // process already uses 12GB RAM": usage_or_rest_told_at()).
  void host_memory(std::string_view lo) {
    for_each_prose_size(lo, [&](double v, int64_t unit_bytes, size_t, bool host_tagged, size_t p) {
      const double bytes = v * static_cast<double>(unit_bytes);
      if (!host_tagged || bytes < static_cast<double>(kGiB) || bytes >= 1e15 || usage_or_rest_told_at(lo, p)) return;
      const std::string_view clause = clause_at(lo, p);
      if (clause.empty()) return;
      const size_t start = static_cast<size_t>(clause.data() - lo.data());
      const std::string_view before = clause.substr(0, p > start ? p - start : 0);
      if (device_named(before) || contains_word(before, "gpu") || contains_word(before, "card")) return;
      ev_.host_ram_bytes = std::max(ev_.host_ram_bytes, static_cast<int64_t>(bytes));
    });
  }

  // GPUs counted in the user's words: "on 2 GPUs", "8x H100 80GB", "2 x A100", "4 RTX 3090 cards",
  // "8 A100-40Gs" (a count of 2 to 1024 just before a GPU word or model name, with "x" or "*"
  // between or not): the GPUs the user has (ev_.gpus_named), which a run may not all use ("my node
  // is 8 A100-40Gs" and vLLM takes the first); not a size ("24 GB RTX 3090"), an index ("GPU 0") or
  // one GPU.
  void gpu_count(std::string_view lo, int64_t n) {
    if (std::none_of(lo.begin(), lo.end(), is_digit)) return;  // no count on the line
    // Chinese: a count before 卡 (cards, zh_cards_counted_at(): "8卡3090", "4张卡", "L40-48G 4卡", "四卡"), or
    // digits before 张 / 块 and a card's model ("4张3090", "8块A100"): that many GPUs.
    if (!ascii_) {
      for (size_t p = lo.find(kZhCard); p != std::string_view::npos; p = lo.find(kZhCard, p + kZhCard.size())) {
        if (const int64_t v = zh_cards_counted_at(lo, p); v >= 2 && v <= 1024) {
          ev_.gpus_named.emplace_back(n, v);
          return;
        }
      }
      for (std::string_view measure : {std::string_view("\xe5\xbc\xa0"), std::string_view("\xe5\x9d\x97")}) {
        for (size_t p = lo.find(measure); p != std::string_view::npos; p = lo.find(measure, p + 3)) {
          // A card's model after it: its number ("3090") or a letter and digits ("a100", "v100", "l40").
          const size_t m = p + 3;
          const bool card = m < lo.size() && (is_digit(lo[m]) || (m + 1 < lo.size() && is_alpha(lo[m]) && is_digit(lo[m + 1])));
          if (!card) continue;
          if (const int64_t v = small_count_before(lo, p); v >= 2 && v <= 1024) {
            ev_.gpus_named.emplace_back(n, v);
            return;
          }
        }
      }
    }
    // Not GPUs the run does not use ("4 GPUs in the box but run on one") nor another run's ("trained
    // on 64 GPUs", a model card's): in the sentence that holds the count ("Loading the pretrained
    // weights fails. The instance has 8 GPUs" counts).
    auto other_run = [&](size_t at) {
      const size_t dot = lo.rfind(". ", at);
      const size_t from = dot == std::string_view::npos ? 0 : dot + 2;
      const size_t to = std::min(lo.size(), lo.find(". ", at));
      return contains_any(lo.substr(from, to - from), {"on one", "use one", "using one", "only one", "a single", "single gpu",
                                                       "trained on", "pretrained", "pre-trained"});
    };
    // The count before GPUs in the plural ("8 GPUs", "4 cards") or a model's name ("8x H100", "4 RTX
    // 3090", "2 Tesla V100"); not before "GPU" alone (a card's number: "GTX 970 GPU"; "2x GPU memory")
    // nor "NVIDIA" (nvidia-smi's rows: "|   2  NVIDIA A100 ...", an index).
    // (A model's name in the plural too: "8x 80GB A100s", "4 3090s".)
    auto gpu_word = [&](std::string_view t) {
      if (t == "gpus" || t == "cards" || t == "rtx" || t == "gtx" || t == "tesla") return true;
      // The series glued to its number ("5* RTX4090", "2x GTX1080ti").
      if (t.size() >= 7 && (t.substr(0, 3) == "rtx" || t.substr(0, 3) == "gtx") && is_digit(t[3]) && is_digit(t[4])) return true;
      auto it = words().find(t);
      if ((it == words().end() || it->second != kWGpuName) && t.size() > 3 && t.back() == 's') it = words().find(t.substr(0, t.size() - 1));
      return it != words().end() && it->second == kWGpuName && t != "card" && t != "gpu0" && t != "gpu" && t != "cards";
    };
    // A count: digits ("8"), or digits and "x" ("8x"); "2 x A100" takes the word after the "x".
    auto count_of = [](std::string_view t) -> std::string_view {
      if (t.size() >= 2 && t.back() == 'x') t.remove_suffix(1);
      return !t.empty() && t.size() <= 4 && std::all_of(t.begin(), t.end(), is_digit) ? t : std::string_view();
    };
    // A card's memory size between the count and the GPU word ("16 x 40GB GPUs", "8x 80GB A100s"):
    // digits then "gb" or "g".
    auto size_token = [](std::string_view t) {
      size_t d = 0;
      while (d < t.size() && is_digit(t[d])) ++d;
      return d > 0 && d <= 4 && (t.substr(d) == "gb" || t.substr(d) == "g");
    };
    // Read word by word, keeping the last three (a per-line path: no copy of the line's words).
    std::string_view third_last, before_last, last;
    for_each_token(lo, [&](size_t i, size_t j) {
      const std::string_view t = lo.substr(i, j - i);
      std::string_view c = count_of(last);
      if (c.empty() && last == "x") c = count_of(before_last);
      if (c.empty() && size_token(last)) {
        c = count_of(before_last);
        if (c.empty() && before_last == "x") c = count_of(third_last);
      }
      if (!c.empty() && gpu_word(t)) {
        const int64_t v = std::stoll(std::string(c));
        if (v >= 2 && v <= 1024 && !other_run(i)) {
          ev_.gpus_named.emplace_back(n, v);
          return false;
        }
      }
      third_last = before_last;
      before_last = last;
      last = t;
      return true;
    });
  }

  // A size told in prose as a GPU's, kept as the named device's where it is one: GB / GiB / G (read
  // as GiB), 1 to 512 of them, printed in at most 6 characters (not a byte count's long digits).
  // The largest such size is kept. Returns whether `value` was one.
  bool keep_named_device_size(double value, int64_t unit_bytes, size_t chars) {
    if (unit_bytes != kGiB || chars > 6 || value < 1 || value > 512) return false;
    ev_.named_device_bytes = std::max(ev_.named_device_bytes, static_cast<int64_t>(value * static_cast<double>(kGiB)));
    return true;
  }

  // A GPU's size attached to the plural "GPUs" on the lower-cased line `lo`: right before it ("two
  // 80GB GPUs", "8*80G GPUs", "8x 80GB GPUs") or right after it with "each" / "per GPU" ("4 GPUs, 64GB
  // each", "8 GPUs with 80GB each"). Not a total ("4 GPUs (96GB total)"), the node's memory ("--gpus=4
  // --mem=256G", "1.0/4 GPUs, 0.0/128.5 GiB heap") nor a model's size ("needs 140GB, so I split it over
  // 2 GPUs"), which no such attachment names.
  void plural_gpus_size(std::string_view lo) {
    auto keep = [&](const ProseNumber& v) { keep_named_device_size(v.value, v.unit_bytes, v.chars); };
    for (size_t p = lo.find("gpus"); p != std::string_view::npos; p = lo.find("gpus", p + 4)) {
      if (!is_word_at(lo, p, 4)) continue;
      // Before: the size's token ends right before " gpus" (its number after "*", "x" or a space).
      size_t e = p;
      while (e > 0 && lo[e - 1] == ' ') --e;
      size_t b = e;
      while (b > 0 && (is_alpha(lo[b - 1]) || is_digit(lo[b - 1]) || lo[b - 1] == '.')) --b;
      // (The unit apart from its number, "80 GB GPUs": the number before it.)
      const std::string_view unit = lo.substr(b, e - b);
      if ((unit == "gb" || unit == "gib" || unit == "g") && b >= 2 && lo[b - 1] == ' ' && is_digit(lo[b - 2])) {
        b -= 1;
        while (b > 0 && (is_digit(lo[b - 1]) || lo[b - 1] == '.')) --b;
      }
      size_t d = b;
      while (d < e && !is_digit(lo[d])) ++d;
      if (d < e && e < p) {
        if (const std::optional<ProseNumber> v = prose_number_at(lo, d); v && v->end == e) keep(*v);
      }
      // After: "..., 64GB each", "with 80GB each", "of 80 GB per GPU".
      const std::string_view after = lo.substr(p + 4, 32);
      for (size_t q = 0; q < after.size(); ++q) {
        if (!is_digit(after[q]) || (q > 0 && (word_char(after[q - 1]) || after[q - 1] == '.'))) continue;
        const std::optional<ProseNumber> v = prose_number_at(after, q);
        if (!v || v->unit_bytes == 0) break;
        const std::string_view tail = after.substr(v->end);
        if (tail.rfind(" each", 0) == 0 || tail.rfind(" per gpu", 0) == 0) keep(*v);
        break;
      }
    }
  }

  // Sizes in GB / GiB / G (1 GiB to 512 GiB) on a line that names a GPU: the largest is kept, not
  // a size tagged as the host's ("RTX 3090 24GB, 64GB RAM").
  // Without a size on the line, a GPU named by a model of one memory size ("on a single H100", "a
  // Colab T4 GPU") gives its catalogue capacity (gpus.h: the CUDA-reported figure; the H100's
  // smallest, its PCIe 80 GB). A100 and V100 come in two sizes: not read without one. The short
  // names (T4, L4) count only beside a GPU word.
  // (Not a figure of use or need told on that line: "it will already take up almost 40GB VRAM per
  // GPU", "uses 20GB", "needs 30GB": usage_or_rest_told_at().)
  void named_memory(std::string_view lo) {
    bool sized = false;
    for_each_prose_size(lo, [&](double v, int64_t unit_bytes, size_t chars, bool host_tagged, size_t at) {
      if (!host_tagged && !usage_or_rest_told_at(lo, at) && keep_named_device_size(v, unit_bytes, chars)) sized = true;
    });
    if (sized) return;
    const bool gpu_word = lo.find("gpu") != std::string_view::npos || lo.find("card") != std::string_view::npos ||
                          lo.find("nvidia") != std::string_view::npos || lo.find("tesla") != std::string_view::npos ||
                          lo.find("colab") != std::string_view::npos ||
                          lo.find("\xe5\x8d\xa1") != std::string_view::npos;  // 卡 (zh: card, 显卡 graphics card)
    for_each_token(lo, [&](size_t i, size_t j) {
      const std::string_view w = lo.substr(i, j - i);
      for (const GpuModelName& g : gpu_model_names()) {
        if (w != g.word || g.catalog.empty()) continue;
        if (g.needs_gpu_word && !gpu_word && lo.find("rtx") == std::string_view::npos) continue;
        ev_.named_device_bytes = std::max(ev_.named_device_bytes, find_gpu(std::string(g.catalog)).capacity_bytes);
      }
      return true;
    });
  }

  void device_ids(std::string_view lo) {
    for (size_t p = lo.find("cuda:"); p != std::string_view::npos && ev_.device_ids.size() < 64; p = lo.find("cuda:", p + 5)) {
      size_t end = 0;
      if (integer_at(lo, p + 5, &end)) ev_.device_ids.insert(std::string(lo.substr(p + 5, end - p - 5)));
    }
  }

  // Where the first call in `rhs` closes: the ')' matching the first '(' (npos when unbalanced).
  static size_t first_call_end(std::string_view rhs) {
    const size_t open = rhs.find('(');
    if (open == std::string_view::npos) return std::string_view::npos;
    int depth = 0;
    for (size_t i = open; i < rhs.size(); ++i) {
      if (rhs[i] == '(') ++depth;
      if (rhs[i] == ')' && --depth == 0) return i;
    }
    return std::string_view::npos;
  }

  // A code line calling the model object itself: the first call's callee, after "self.", is
  // "model", "net" or "network" ("out = model(x)[0]", "logits = self.model(**batch)",
  // "net(images)", DDP's "model.module(x)"): its forward. Not a builder ("build_model(cfg)") nor a method of the model
  // ("model.to(device)", "model.generate(...)").
  static bool calls_model_object(std::string_view t) {
    const size_t open = t.find('(');
    if (open == std::string_view::npos) return false;
    size_t b = open;
    while (b > 0 && (word_char(t[b - 1]) || t[b - 1] == '.')) --b;
    std::string_view callee = t.substr(b, open - b);
    if (callee.substr(0, 5) == "self.") callee.remove_prefix(5);
    // DDP / DataParallel's wrapped module called directly: "out = model.module(x)".
    for (std::string_view wrapped : {".module", "._orig_mod"}) {
      if (callee.size() > wrapped.size() && callee.substr(callee.size() - wrapped.size()) == wrapped) {
        callee.remove_suffix(wrapped.size());
        break;
      }
    }
    return callee == "model" || callee == "net" || callee == "network";
  }

  // The receiver of the call at t[p] (".cuda()", ".to(device)"): the expression before it, calls
  // and subscripts included ("torch.stack(tensors)", "batch['input_ids']", "AutoModel.from_pretrained(p)").
  static std::string_view receiver_before(std::string_view t, size_t p) {
    size_t b = p;
    while (b > 0) {
      const char c = t[b - 1];
      if (word_char(c) || c == '.') {
        --b;
      } else if (c == ')' || c == ']') {
        const char open = c == ')' ? '(' : '[';
        int depth = 0;
        size_t i = b;
        while (i > 0) {
          --i;
          if (t[i] == c) ++depth;
          if (t[i] == open && --depth == 0) break;
        }
        if (depth != 0) break;
        b = i;
      } else {
        break;
      }
    }
    return t.substr(b, p - b);
  }

  // The deployment formats a model is exported or converted to, and the calls that export one (the
  // export traced at an example input: torch.onnx.export, torch.jit.trace, torch.export, dynamo_export).
  static constexpr std::string_view kExportFormats[] = {"onnx", "tensorrt", "torchscript", "coreml", "tflite", "openvino"};
  static constexpr std::string_view kExportCalls[] = {"onnx.export(", "jit.trace(", "torch.export.export(", "dynamo_export("};
  static bool export_called(std::string_view lo) {
    return std::any_of(std::begin(kExportCalls), std::end(kExportCalls),
                       [&](std::string_view c) { return lo.find(c) != std::string_view::npos; });
  }

  // A format of kExportFormats told as where a model goes, "to / into / as / in <format>" as words ("saving
  // the model to onnx format", "into ONNX", "save it as TorchScript"; not "to onnxruntime").
  static bool format_as_destination(std::string_view text) {
    for (std::string_view f : kExportFormats) {
      for (std::string_view to : {"to ", "into ", "as ", "in "}) {
        const std::string dest = std::string(to) + std::string(f);
        for (size_t p = text.find(dest); p != std::string_view::npos; p = text.find(dest, p + 1)) {
          if ((p == 0 || !is_alpha(text[p - 1])) && (p + dest.size() >= text.size() || !is_alpha(text[p + dest.size()]))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  // A line telling a model exported or converted to a deployment format: "torch.onnx.export(" /
  // "torch.jit.trace(" / "torch.export.export(", or an export or conversion word (export, exporting,
  // exported, convert, converting, 导出 "export", 转换 "convert") with the format named on the line
  // (onnx, tensorrt, torchscript, coreml, tflite, openvino), or the format as the model's destination
  // ("saving the model to onnx format", "into ONNX"); not ONNX Runtime alone running a model.
  static bool model_exported(std::string_view lo) {
    // (Not a shell's variable set: "export ORT_TENSORRT_FP16_ENABLE=1", "export MODEL_PATH=/m/llama.onnx".)
    if (const size_t e = lo.find("export "); e != std::string_view::npos && word_starts_at(lo, e)) {
      size_t k = e + 7;
      while (k < lo.size() && (is_alpha(lo[k]) || is_digit(lo[k]) || lo[k] == '_')) ++k;
      if (k > e + 7 && k < lo.size() && lo[k] == '=') return false;
    }
    // (torch.onnx.export named without its call: "Diagnostic Run torch.onnx.export version 2.0.1".)
    if (lo.find("onnx.export") != std::string_view::npos || export_called(lo)) return true;
    // A format named, ONNX apart from ONNX Runtime's own name.
    bool format = false;
    for (std::string_view f : kExportFormats) {
      for (size_t p = lo.find(f); p != std::string_view::npos && !format; p = lo.find(f, p + 1)) {
        format = f != "onnx" || lo.compare(p, 11, "onnxruntime") != 0;
      }
    }
    if (!format) return false;
    if (format_as_destination(lo)) return true;
    for (std::string_view f : kExportFormats) {
      if (lo.find(std::string(f) + " format") != std::string_view::npos) return true;
    }
    return contains_word_start(lo, "export") || contains_word_start(lo, "convert") ||
           lo.find("\xe5\xaf\xbc\xe5\x87\xba") != std::string_view::npos ||  // 导出
           lo.find("\xe8\xbd\xac\xe6\x8d\xa2") != std::string_view::npos;    // 转换
  }

  // A line telling a model's export as the run that ran out (`lo` lowercased): model_exported() with the
  // memory's trouble on the same line ("Exporting Baichuan-13B to ONNX runs out of memory", "使用3090导出
  // QWen-7b，报OOM问题"); not an export told done, later, fine or beside the point ("the TensorRT engine I
  // exported last week OOMs", "(exported fine)", "is not the problem", "I plan to convert it later").
  static bool model_export_failed(std::string_view lo) {
    if (!model_exported(lo)) return false;
    const bool trouble = contains_word_start(lo, "oom") || contains_any(lo, {"memory", "killed",
                                                                               "\xe6\x98\xbe\xe5\xad\x98",   // 显存
                                                                               "\xe5\x86\x85\xe5\xad\x98"});  // 内存
    // (Nor the model served or run after its conversion: "I convert the model to TorchScript. Found out that
    // I can only inference at batch 5", "serve it with Triton".)
    return trouble && lo.find('?') == std::string_view::npos &&
           !contains_any(lo, {"later", "fine", "not the problem", "not the issue", "works", "worked", "last week", "before",
                              "already", "successfully", "not ", "n't", "never", "inference", "serve", "serving", "deploy"});
  }

  // A model told saved to a deployment format in the same clause as the save ("saving the model to onnx
  // format", "save it as TorchScript"): an export, which traces a forward pass, not a checkpoint written.
  // Not a save then a conversion ("when saving the model to disk, then I convert it to ONNX later").
  static bool saved_to_format(std::string_view lo) {
    for (size_t p = lo.find("sav"); p != std::string_view::npos; p = lo.find("sav", p + 3)) {
      if (!word_starts_at(lo, p)) continue;
      std::string_view rest = lo.substr(p, 48);
      for (std::string_view stop : {",", ";", ". ", " then", " and ", " but ", " before", " after", " convert", " export"}) {
        if (const size_t q = rest.find(stop); q != std::string_view::npos) rest = rest.substr(0, q);
      }
      if (format_as_destination(rest)) return true;
    }
    return false;
  }

  // A code line moving a model (or anything not shown to be data) to the device: ".cuda(...)" or
  // ".to(<a device>, ...)" whose receiver is not a batch or a new tensor. A batch
  // moved ("images = images.cuda()", "batch = {k: v.to(device) ...}", "torch.stack(tensors).cuda()"
  // in a collate function) or a tensor made on the host and moved ("torch.rand(4096, 9216).cuda()")
  // fails because the device is already full: it says nothing of the model's load.
  static bool moves_model_to_device(std::string_view t) {
    for (std::string_view move : {".cuda(", ".to("}) {
      for (size_t p = t.find(move); p != std::string_view::npos; p = t.find(move, p + 1)) {
        // ".to(...)" with a device for its first argument: "device", "args.device", "self.device",
        // "accelerator.device", "torch.device('cuda')", "'cuda:0'", f"cuda:{rank}", "rank",
        // "local_rank", "gpu_id"; not a dtype ("x.to(torch.float16)") nor another tensor.
        if (move == ".to(") {
          const size_t a = p + move.size();
          size_t e = a;
          int depth = 0;
          while (e < t.size() && !(depth == 0 && (t[e] == ',' || t[e] == ')'))) {
            if (t[e] == '(') ++depth;
            if (t[e] == ')') --depth;
            ++e;
          }
          const std::string arg = lower(t.substr(a, e - a));
          if (arg.find("device") == std::string::npos && arg.find("cuda") == std::string::npos &&
              arg.find("rank") == std::string::npos && arg.find("gpu") == std::string::npos) {
            continue;
          }
        }
        const std::string_view rec = receiver_before(t, p);
        // The receiver's name: its leading identifiers and dots, up to its first call or subscript.
        const std::string_view name = rec.substr(0, std::min(rec.find('('), rec.find('[')));
        const std::string lname = lower(name);
        const size_t dot = lname.rfind('.');
        const std::string_view last = std::string_view(lname).substr(dot == std::string::npos ? 0 : dot + 1);
        const std::string_view first = std::string_view(lname).substr(0, lname.find('.'));
        const bool tensor_made = first == "torch" && (last == "stack" || last == "cat" || last == "rand" || last == "randn" ||
                                                      last == "randint" || last == "zeros" || last == "ones" || last == "eye" ||
                                                      last == "empty" || last == "full" || last == "arange" ||
                                                      last == "tensor" || last == "as_tensor" || last == "asarray" || last == "from_numpy");
        // A tokenizer's or processor's output is a batch (HF's BatchEncoding: "tokenizer(texts,
        // return_tensors='pt').to(device)").
        // The next item of an iterator or loader ("batch = next(train_iterator).to(args.device)") is a batch.
        bool data = tensor_made || last == "variable" || lname == "next" || first == "x" || first == "y" || first == "v" || first == "src" ||
                    first == "tgt" || first == "mask" || lname.find("tokeniz") != std::string::npos ||
                    lname.find("processor") != std::string::npos || first == "tok";
        for (std::string_view w : {"batch", "input", "image", "img", "label", "target", "tensor", "sample", "feat", "data"}) {
          data = data || first.find(w) != std::string_view::npos || (last != first && last.find(w) != std::string_view::npos);
        }
        // A module by its name, whatever data word it holds ("data_model", "DataModel(cfg)",
        // "nn.DataParallel(model)", "inputs_encoder").
        for (std::string_view m : {"model", "parallel", "net", "encoder", "decoder", "module", "unet", "vae", "pipe"}) {
          if (lname.find(m) != std::string::npos && lname.find("tokeniz") == std::string::npos &&
              lname.find("processor") == std::string::npos) {
            data = false;
          }
        }
        if (!data) return true;
      }
    }
    return false;
  }

  // A code line casting the model's weights to another dtype: the object before ".to(torch.<dtype>",
  // ".to(dtype=", ".float()", ".half()", ".bfloat16()" is a parameter, a weight, the model or a
  // module ("param.data = param.data.to(torch.float32)", "model = model.float()",
  // "self.model.half()"), not an activation ("logits.float()", "hidden_states.to(torch.float32)").
  static bool casts_weights(std::string_view t) {
    for (std::string_view cast : {".to(torch.float", ".to(torch.bfloat16", ".to(torch.half", ".to(dtype=", ".float()",
                                  ".half()", ".bfloat16()", ".double()"}) {
      for (size_t p = t.find(cast); p != std::string_view::npos; p = t.find(cast, p + 1)) {
        size_t b = p;
        while (b > 0 && (word_char(t[b - 1]) || t[b - 1] == '.')) --b;
        const std::string_view object = t.substr(b, p - b);
        size_t last = object.rfind('.');
        const std::string_view tail = last == std::string_view::npos ? object : object.substr(last + 1);
        if (object.find("param") != std::string_view::npos || object.find("weight") != std::string_view::npos ||
            tail == "model" || tail == "module" || (tail == "data" && object.find("param") != std::string_view::npos)) {
          return true;
        }
      }
    }
    return false;
  }

  // A code line whose loss word (loss, logits, lm_head, cross_entropy, compute_loss) is only in
  // what it assigns to or in the field it reads from the call's output: "logits =
  // model(input_ids)", "loss, logits = self.forward(x)", "loss = model(**batch).loss" call the
  // model's forward; "loss = F.cross_entropy(logits, y)", "loss = self.criterion(out, y)" and
  // "loss = loss_fn(pred, y)" compute the loss.
  static bool loss_word_only_assigned(std::string_view t) {
    size_t eq = std::string_view::npos;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '=') continue;
      const char before = i > 0 ? t[i - 1] : ' ';
      const char after = i + 1 < t.size() ? t[i + 1] : ' ';
      if (after == '=' || before == '=' || before == '!' || before == '<' || before == '>') continue;
      eq = i;
      break;
    }
    if (eq == std::string_view::npos || t.substr(0, eq).find('(') != std::string_view::npos) return false;
    std::string_view rhs = t.substr(eq + 1);
    if (rhs.find('(') == std::string_view::npos) return false;
    // The output's fields and methods after the call ("model(**batch).loss",
    // "model(x)['logits']", "model(x).loss.mean()") name what the forward returned, not a loss
    // computed here: only the first call (its callee and arguments) is read.
    if (const size_t close = first_call_end(rhs); close != std::string_view::npos) {
      const std::string_view tail = trim_view(rhs.substr(close + 1));
      if (!tail.empty() && (tail[0] == '.' || tail[0] == '[')) rhs = rhs.substr(0, close + 1);
    }
    // A loss function called ("self.criterion(out, y)", "loss_fn(pred, y)", "F.nll_loss(...)") or
    // the logits passed on: the loss.
    for (std::string_view w : {"loss", "logits", "lm_head", "cross_entropy", "criterion", "nll"}) {
      if (rhs.find(w) != std::string_view::npos) return false;
    }
    return true;
  }

  // A traceback frame ("File \"...\", line N, in func") or the code line under it.
  void frame_facts(std::string_view t, int64_t n, uint64_t seen, bool frame) {
    auto has = [&](Word w) { return ((seen >> w) & 1u) != 0; };
    auto contains = [&](std::string_view s) { return t.find(s) != std::string_view::npos; };
    // torch.distributed's object collectives (all_gather_object, gather_object,
    // broadcast_object_list) place their pickled tensors on the current CUDA device: a rank that
    // never called torch.cuda.set_device puts them on cuda:0, with every other rank's. Their own
    // frame (torch/distributed/...) or a call of them ("dist.all_gather_object(out, x)"), not a
    // function of the user's named alike, a comment or a string; read in context_at() for the
    // traceback just before the report, where the log never calls set_device.
    if (contains("_object") && !contains("#") && (frame || (!contains("\"") && !contains("'")))) {
      for (std::string_view c : {"all_gather_object", "gather_object", "broadcast_object_list"}) {
        const size_t p = t.find(c);
        if (p == std::string_view::npos) continue;
        const size_t e = p + c.size();
        const bool own_frame = frame && (contains("torch/distributed") || contains("torch\\distributed")) &&
                               (e >= t.size() || !word_char(t[e]));
        const bool call = p > 0 && t[p - 1] == '.' && e < t.size() && t[e] == '(';
        if (own_frame || call) {
          ev_.collective_lines.push_back(n);
          break;
        }
      }
    }
    // DistributedDataParallel's own forward in the traceback: a run of several ranks.
    if (frame && !ev_.ddp_frame_line && (contains("parallel/distributed.py") || contains("parallel\\distributed.py"))) {
      ev_.ddp_frame_line = n;
    }
    // A code line that only assigns to a loss word ("logits = model(x)") runs the forward.
    const bool loss_assigned_only = !frame && has(kWLoss) && loss_word_only_assigned(t);
    const bool weights_cast = casts_weights(t);
    char phase = 0;
    std::string what;
    if (has(kWOptim) || contains("optimizer.step(") || contains("optim/adam") || contains("optim\\adam") ||
        (contains("in step") && (contains("optim") || contains("zero/stage")))) {
      phase = 'o';
      what = "optimizer step";
    } else if ((contains("optimizer.load_state_dict(") || contains("optim.load_state_dict(") ||
                contains("opt.load_state_dict(")) &&
               !contains("torch.load(")) {
      // The optimizer's state loaded (a resume): Adam's moments land on the device beside the model.
      // (With torch.load in the same call, the deserialization is the frame's: the checkpoint lands
      // on the device it was saved from, every rank on GPU 0: the load phase below.)
      phase = 'o';
      what = "the optimizer's state loaded (optimizer.load_state_dict)";
    } else if (has(kWSave) && (contains("save_pretrained") || contains("save_checkpoint") || contains("torch.save(") ||
                               contains("in save") || contains("in _save") || contains("save_model"))) {
      phase = 's';
      what = "saving a checkpoint";
    } else if ((frame || contains(".add_weight(")) && (contains("/keras/applications/") || contains("\\keras\\applications\\") ||
                         contains("keras_applications/") || contains("keras_applications\\") || contains(" in add_weight(") ||
                         contains(".add_weight("))) {
      // A Keras model being built (keras.applications' constructors, a layer's add_weight): its
      // variables are created, as a TensorFlow initializer's node tells.
      phase = 'I';
      what = "a Keras model built (its variables created, no step has run)";
    } else if (has(kWLoad) || contains("torch.load(") || moves_model_to_device(t) || contains("in convert") || contains("load_model(") ||
               module_convert_line(t) ||  // nn.Module.to's convert() body without its frame line: the model moved
               contains("= pipeline(") ||  // HF's pipeline() built: it loads the model onto its device
               contains("create_predictor(") ||  // Paddle Inference loads the model into a predictor
               weights_cast) {
      phase = 'l';
      what = (contains("optimizer.load_state_dict(") || contains("optim.load_state_dict(") || contains("opt.load_state_dict(")) &&
                     contains("torch.load(")
                 ? std::string(kOptimizerDeserialized)
             : contains("flatten_dense_tensors_aligned") || contains("_create_fp16_partitions") || contains("_init_flat_param")
                 ? "the model's parameters flattened into one buffer (ZeRO / FSDP setup)"
             : weights_cast || contains("prepare_model_for_kbit_training")
                 ? "the model's weights cast to another dtype"
                 : "model load / move to the device";
    } else if (contains(".generate(") || (frame && (contains("in generate") || contains("in sample") ||
                                                    contains("in greedy_search") || contains("in _sample") ||
                                                    contains("in beam_search")))) {
      phase = 'g';
      what = "generate()";
    } else if (has(kWEval) && (frame || contains("eval") || contains("predict") || contains("valid")) &&
               !(!frame && contains(".fit(")) &&  // Keras' model.fit(..., validation_data=...) trains
               // a loss named for evaluation taken backward trains ("evaluation_error.backward()": MAML's
               // query-set loss of the outer step)
               !(!frame && contains(".backward("))) {
      phase = 'e';
      what = "evaluation / inference";
    } else if (has(kWBackward)) {
      phase = 'b';
      what = "backward";
    } else if (has(kWDataLoader) && frame) {
      phase = 'd';
      what = "DataLoader";
    } else if (has(kWAttention)) {
      phase = 'a';
      what = "attention";
    } else if (has(kWLoss) && !loss_assigned_only) {
      phase = 'L';
      what = "loss / logits";
    } else if (has(kWForward) || contains("_call_impl") || loss_assigned_only || (!frame && calls_model_object(t))) {
      // 'F': a forward inside PyTorch's own nn modules (under the model's lm_head, a loss module):
      // it does not move the phase away from the frame above it.
      phase = library_frame_ ? 'F' : 'f';
      what = "forward";
    }
    if (has(kWNoGrad)) add(n, FactKind::kFrame, OomCause::kEvalWithoutNoGrad, 0, "no_grad in the traceback", 'n');
    // torch.no_grad()'s decorator as a frame prints its wrapper, not its name: grad_mode.py's
    // decorate_no_grad (PyTorch <= 1.5) or decorate_context (_DecoratorContextManager, 1.6 and later;
    // also an optimizer's step, which runs under no_grad): the call below it builds no graph.
    else if (frame && contains("grad_mode.py") && (contains("decorate_no_grad") || contains("decorate_context"))) {
      add(n, FactKind::kFrame, OomCause::kEvalWithoutNoGrad, 0, "no_grad's decorator in the traceback", 'n');
    }
    // Runtimes that build no autograd graph: vLLM's engine and workers run the model under
    // torch.inference_mode() (its worker's @torch.inference_mode() methods), ONNX Runtime and
    // TensorRT have no autograd. A traceback through them has no evaluation phase, whatever the
    // script above them is called ("test_llama.py", "onnxruntime_inference_collection.py").
    if (frame && (contains("/vllm/") || contains("\\vllm\\") || contains("/onnxruntime/") || contains("\\onnxruntime\\") ||
                  contains("/tensorrt/") || contains("/tensorrt_llm/"))) {
      add(n, FactKind::kFrame, OomCause::kEvalWithoutNoGrad, 0, "a runtime without autograd (vLLM, ONNX Runtime, TensorRT)", 'v');
    }
    if (phase) add(n, FactKind::kFrame, OomCause::kOther, 0, what + ": " + shown(t), phase);
  }

  // "step 120 | loss 2.1 | mem 10.5 GiB", "Epoch 3 ... allocated: 2048 MB"
  void step_memory(std::string_view lo, int64_t n, uint64_t seen) {
    if (((seen >> kWStep) & 1u) == 0 || ((seen >> kWMem) & 1u) == 0) return;
    std::optional<int64_t> step;
    for (std::string_view w : {"step", "iteration", "iter", "epoch", "it"}) {
      for (size_t p = lo.find(w); p != std::string_view::npos && !step; p = lo.find(w, p + 1)) {
        if (p > 0 && word_char(lo[p - 1])) continue;
        size_t i = p + w.size();
        if (i < lo.size() && word_char(lo[i])) continue;
        while (i < lo.size() && (lo[i] == ' ' || lo[i] == ':' || lo[i] == '=' || lo[i] == '#' || lo[i] == '[')) ++i;
        size_t end = 0;
        auto v = integer_at(lo, i, &end);
        if (v && end - i < 12) step = v;
      }
      if (step) break;
    }
    if (!step) return;
    for (std::string_view w : {"memory", "mem", "allocated", "reserved"}) {
      const size_t p = lo.find(w);
      if (p == std::string_view::npos) continue;
      size_t i = p + w.size();
      for (size_t k = 0; k < 20 && i < lo.size() && !is_digit(lo[i]); ++k) ++i;
      if (i >= lo.size() || !is_digit(lo[i])) continue;
      size_t j = i;
      while (j < lo.size() && (is_digit(lo[j]) || lo[j] == '.')) ++j;
      while (j < lo.size() && lo[j] == ' ') ++j;
      std::string num_unit = squash(lo.substr(i, std::min<size_t>(j - i + 3, lo.size() - i)));
      auto size = size_at(num_unit, 0);
      if (!size || size->overflow || size->bytes < kKiB) continue;
      ev_.step_mem.push_back({n, *step, size->bytes});
      return;
    }
  }

  // The process this line's launcher prefix names, kept (as runs of lines) only near a traceback:
  // a report there reads its own process's frames (context_at()). A training log whose every line
  // carries a rank prefix keeps nothing for its progress lines.
  void note_process(int64_t n) {
    if (line_process_ < 0 || traceback_line_ == 0 || n - traceback_line_ > kProcessLinesAfterFrame) return;
    auto& runs = ev_.line_process;
    if (!runs.empty() && runs.back().process == line_process_ && runs.back().last + 1 == n) {
      runs.back().last = n;
    } else {
      runs.push_back({n, n, line_process_});
    }
  }
  static constexpr int64_t kProcessLinesAfterFrame = 100;

  // The objects of an earlier run kept when the next one is made: "old ort session may already
  // exist when creating a new ort session", "Keras doesn't free the GPU memory of the old model
  // weights when loading new model weights", "it should overwrite the previous model": each
  // session, model or engine made again adds its memory (leak_across_steps).
  void previous_kept(std::string_view raw, std::string_view lo, int64_t n) {
    // The object right after the word, or after one word more ("old ort session").
    auto object_at = [&](size_t at) {
      const std::string_view rest = lo.substr(std::min(at, lo.size()));
      for (std::string_view o : {"session", "model", "instance", "engine", "pipeline", "graph", "weights"}) {
        if (rest.rfind(o, 0) == 0) return true;
      }
      return false;
    };
    for (std::string_view w : {"old ", "previous "}) {
      for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
        if (p > 0 && word_char(lo[p - 1])) continue;
        const size_t after = p + w.size();
        const size_t next_word = lo.find(' ', after);
        if (!object_at(after) && (next_word == std::string_view::npos || next_word - after > 12 || !object_at(next_word + 1))) {
          continue;
        }
        // Kept, told: not merely replaced ("loads the new model"), nor told gone ("the old session no
        // longer exists", "the old model is deleted").
        if (!contains_any(lo, {"still", "already exist", "not free", "n't free", "not released", "n't release", "overwrite",
                               "never freed", "never released"}) ||
            contains_any(lo, {"no longer", "not exist", "n't exist", "any more", "anymore", "is deleted", "was deleted",
                              "is freed", "was freed", "is released", "was released"})) {
          continue;
        }
        add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.35,
            "an earlier run's objects kept when the next is made: " + shown(raw.substr(0, 160)), 0, Told::kAccount);
        return;
      }
    }
  }

  // A cap on the memory told with its size: "XLA's host pool: capped at 64 GB by default", "the
  // pool is limited to 2GB (ORT_ARENA_LIMIT)": a limit below the memory, not the memory (other).
  // Memory named on the line; not a batch or a length capped ("capped at 512 tokens" has no size
  // in bytes), not negated ("not limited to 4 GB").
  void cap_told(std::string_view raw, std::string_view lo, int64_t n) {
    if (!contains_any(lo, {"memory", "pool", "heap", "vram", "ram ", "arena"})) return;
    for (std::string_view k : {"capped at ", "limited to "}) {
      const size_t p = lo.find(k);
      if (p == std::string_view::npos) continue;
      if (p >= 4 && (lo.substr(p - 4, 4) == "not " || lo.substr(p - 4, 4) == "n't ")) continue;
      const std::string tail = squash(lo.substr(p + k.size(), 24));
      const auto size = size_at(tail, 0);
      if (!size || size->end == 0 || size->bytes < kMiB) continue;
      const size_t from = p > 80 ? p - 80 : 0;
      add(n, FactKind::kStatement, OomCause::kOther, 0.35,
          "a cap on the memory told: " + std::string(from > 0 ? "..." : "") + shown(raw.substr(from, 160)));
      return;
    }
  }

  // A job stopped by its scheduler or by hand, which a shell's "Killed" / exit code 137 after it
  // reports too (SIGKILL follows SIGTERM at the end of a scheduler's grace period; a user's kill -9
  // after Ctrl-C): SLURM's "*** JOB 42 ON node CANCELLED AT <time> DUE TO TIME LIMIT ***" (also
  // "DUE TO PREEMPTION", or no reason: scancel), PBS's "=>> PBS: job killed: walltime 3618 exceeded
  // limit 3600", LSF's "TERM_RUNLIMIT: job killed after reaching LSF run time limit", coreutils'
  // "timeout: sending signal KILL to command"; Python's KeyboardInterrupt or the terminal's "^C".
  void job_stopped(std::string_view lo, int64_t n) {
    const std::string_view t = trim_view(lo);
    // A kill for memory told anywhere (SLURM's "Detected 1 oom_kill event", "exceeded memory limit
    // ... being killed", sacct's OUT_OF_MEMORY, Kubernetes' OOMKilled, PBS's "job killed: mem ...
    // exceeded limit"): the kill is memory's whatever else stopped the job.
    if (!ev_.memory_kill_line &&
        (contains_any(t, {"oom-kill", "oom_kill", "oom kill", "out_of_memory", "oomkilled", "exceeded memory limit",
                          "memory limit exceeded", "exceeded job memory limit", "killed process", "out of memory: kill"}) ||
         (t.find("job killed") != std::string_view::npos && contains_any(t, {"mem ", "vmem ", "pmem "})))) {
      ev_.memory_kill_line = n;
      return;
    }
    const bool slurm = t.find("cancelled at") != std::string_view::npos && t.find("***") != std::string_view::npos;
    const char* what = nullptr;
    if (slurm && t.find("due to time limit") != std::string_view::npos) {
      what = "SLURM cancelled the job at its time limit";
    } else if (slurm && t.find("due to preemption") != std::string_view::npos) {
      what = "SLURM cancelled the job: preempted";
    } else if (slurm && t.find("due to") == std::string_view::npos) {
      what = "SLURM cancelled the job (scancel)";
    } else if (t.find("walltime") != std::string_view::npos && t.find("exceeded") != std::string_view::npos &&
               t.find("killed") != std::string_view::npos) {
      what = "the batch scheduler killed the job at its walltime";
    } else if (t.rfind("term_runlimit", 0) == 0) {
      what = "LSF killed the job at its run time limit";
    } else if (t.rfind("timeout: sending signal kill", 0) == 0) {  // -s KILL / -k: a TERM alone prints no "Killed"
      what = "timeout(1) killed the command at its time limit";
    }
    if (what) {
      ev_.job_stops.emplace_back(n, what);
    } else if (t.rfind("^c", 0) == 0 || t == "keyboardinterrupt" || t.rfind("keyboardinterrupt:", 0) == 0) {
      ev_.interrupts.push_back(n);
    }
  }

  void statement(std::string_view raw, std::string_view lo, int64_t n, uint64_t seen) {
    // Metal's debug device's own assertion ("-[MTLDebugDevice newBufferWith...] failed assertion
    // `Buffer Validation", "newBufferWith*:length 0x... must not exceed ..."): the message, not
    // evidence of a long input or an evaluation.
    line_lo_ = lo;  // (pairs_ holds the whole line's pairs, line(): a superset of a tail's)
    if (line_has(lo, "newbufferwith") || line_has(lo, "buffer validation")) return;
    // nvidia-smi's table header ("| GPU  Name  Persistence-M| Bus-Id  Disp.A | Volatile Uncorr. ECC |"):
    // its column names, not the user's words (its "Volatile" is no volatile=True).
    if (line_has(lo, "uncorr. ecc") || line_has(lo, "persistence-m")) return;
    auto has_text = [&](std::string_view s) { return line_has(lo, s); };
    auto has = [&](Word w) { return ((seen >> w) & 1u) != 0; };
    auto word_in = [&](std::string_view w) { return pairs_.may_contain(w) && contains_word(lo, w); };
    // A load onto the CPU told as the fix ("Loading the model first to cpu fixes the problem",
    // "map_location='cpu' solved it"): the load's target was the GPU the checkpoint was saved
    // from, not the model's size (context_at() reads it with the log's ranks). Read before the
    // word table's gate below: "map_location" is none of its words.
    const bool cpu_load_fix =
        line_has(lo, "cpu") && (line_has(lo, "load") || line_has(lo, "map_location")) && cpu_load_fixed(lo);
    if (cpu_load_fix && !ev_.cpu_load_fix_line) ev_.cpu_load_fix_line = n;
    constexpr uint64_t kRelevant =
        uint64_t{1} << kWEval | uint64_t{1} << kWNoGrad | uint64_t{1} << kWGenWord | uint64_t{1} << kWLlmGen | uint64_t{1} << kWMulti | uint64_t{1} << kWLeak |
        uint64_t{1} << kWGrow | uint64_t{1} << kWRam | uint64_t{1} << kWOther | uint64_t{1} << kWFrag | uint64_t{1} << kWSetting | uint64_t{1} << kWShards | uint64_t{1} << kWAfter |
        uint64_t{1} << kWLoadProse | uint64_t{1} << kWTraining | uint64_t{1} << kWShapes | uint64_t{1} << kWInputSize | uint64_t{1} << kWLoss | uint64_t{1} << kWSave |
        uint64_t{1} << kWGraph | uint64_t{1} << kWShapeBug | uint64_t{1} << kWRandom | uint64_t{1} << kWVisible | uint64_t{1} << kWDim;
    const bool tf_device_line = has(kWMem) && (has_text("free memory:") ||
                                               has_text("total memory:"));
    // Phrases checked below whose words are not in words(): long inputs (also an input's duration),
    // "the standard model", fp32 weights, a module resident in VRAM, epoch-end hooks.
    // Chinese: "过" (too, as in "过长"), "长" (long), "分辨" (resolution), "尺寸" (size), "加载" / "载入"
    // (load: the model's load), "进程" (process: extra processes on GPU 0), "张卡" (N cards): looked for
    // only on a line holding one of their lead bytes (one scan for ASCII lines).
    // memchr each (cheaper than find_first_of), on a line holding a byte >= 0x80 only.
    const bool cjk = !ascii_ && (lo.find('\xe5') != std::string_view::npos ||
                                 lo.find('\xe8') != std::string_view::npos ||
                                 lo.find('\xe9') != std::string_view::npos);
    const bool phrase_line = has_text("long") || has_text("truncat") ||
                             (cjk && (has_text("\xe8\xbf\x87") ||
                                      has_text("\xe9\x95\xbf") ||
                                      has_text("\xe5\x8a\xa0\xe8\xbd\xbd") ||  // 加载 (load)
                                      has_text("\xe8\xbd\xbd\xe5\x85\xa5") ||  // 载入 (load)
                                      has_text("\xe8\xbf\x9b\xe7\xa8\x8b") ||  // 进程 (process)
                                      has_text("\xe5\xbc\xa0\xe5\x8d\xa1") ||  // 张卡 (N cards: 一张卡 one card)
                                      has_text("\xe6\x9c\x80\xe6\x96\xb0\xe7\x89\x88") ||  // 最新版 (the latest version)
                                      has_text("\xe5\x88\x86\xe8\xbe\xa8") ||
                                      has_text("\xe5\xb0\xba\xe5\xaf\xb8"))) ||
                             has_text(" model") || has_text("epoch_end") ||
                             has_text("+=") || has(kWGpuName) ||
                             has_text("cuda:") || has_text("hour") || has_text("killed") || has_text("unallocated") ||
                             has_text("recording") || has_text("podcast") || has_text("hrs") ||
                             // the versions up to one told working (regression_told(): "0.9.11 and older are fine")
                             std::any_of(std::begin(kUpToOneGate), std::end(kUpToOneGate), has_text) ||
                             has_text("duration") || has_text("fp32") || has_text("float32") || has_text("vram") ||
                             // a recording told large (long_inputs())
                             ((has_text("large") || has_text("big") || has_text("huge")) &&
                              (has_text("wav") || has_text("audio") || has_text("video") || has_text("mp3") || has_text("mp4") ||
                               has_text("flac") || has_text("recording"))) ||
                             // Text Generation Inference's "Shard 0 failed to start"
                             has_text("failed to start") ||
                             has_text("piles up") || has_text("piling up") || has_text("resum") || has_text("minute") || has_text("protein") ||
                             (cjk && has_text("\xe8\x9b\x8b\xe7\x99\xbd")) ||  // 蛋白 (protein)
                             (cjk && (has_text("\xe5\xb0\x8f\xe6\x97\xb6") ||  // 小时 (hours)
                                      has_text("\xe5\x88\x86\xe9\x92\x9f")));  // 分钟 (minutes)
    if (has(kWInputSize) && (has_text("image") || has_text("resolution") ||
                             has_text("picture") || has_text("photo"))) {
      image_seen_ = true;
    }
    // An image file named by its format ("I feed the net a BMP(3968*2976)", "a 4000x3000 .png"): an image.
    if (!image_seen_ && (has_text("bmp") || has_text("png") || has_text("jpg") || has_text("jpeg") || has_text("tiff")) &&
        image_format_named(lo)) {
      image_seen_ = true;
    }
    // A resolution ("3296x2400", "an image of (4096, 4096)") or a protein's length ("2510 aa"):
    // read on every line, the scan is one pass over its digits.
    const bool dims_possible = lo.find('x') != std::string_view::npos || has_text("\xc3\x97") || has_text("0p") ||
                               has_text("aa") || has_text("resid") ||
                               has_text("amino") || has_text("4k") || has_text("8k") ||
                               ((lo.find('(') != std::string_view::npos || lo.find('[') != std::string_view::npos) &&
                                has_text("000,")) ||
                               (image_seen_ && (lo.find('(') != std::string_view::npos || lo.find('[') != std::string_view::npos ||
                                                lo.find('*') != std::string_view::npos));
    const InputDims dims = dims_possible ? input_dims(lo, image_seen_) : InputDims{};
    // One example input made at batch 1 whose image or volume is large (example_input_size()).
    const std::string example_size =
        has_text("rand") || has_text("zeros(") || has_text("ones(") || has_text("empty(") ? example_input_size(lo) : std::string();
    if (has(kWPointer) || (fix_pointer_line_ > 0 && n - fix_pointer_line_ <= kFixPointerLines)) fix_shown_as_code(raw, lo, n);
    stated_account(raw, lo, n);
    raised_setting_told(raw, lo, n);
    if ((has_text("other") || has_text("rest of") || has_text("remaining") || has_text("than cuda") || has_text("than gpu") ||
         has_text("card 1") || has_text("cards 1") || has_text("gpu 1") || has_text("gpus 1") || has_text("cuda:1") ||
         (cjk && has_text("\xe5\x8d\xa1"))) &&  // 卡 (zh: card)
        other_gpus_free_told(lo)) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.4,
          "the other GPUs told free while one fills: the memory is placed unevenly: " + shown(raw.substr(0, 160)), 0,
          Told::kAccount);
    }
    if (!ev_.no_gpu_line && (has_text("gpu") || has_text("cpu") || has_text("cuda")) && no_gpu_told(lo)) ev_.no_gpu_line = n;
    // An NVIDIA Jetson board (Nano, TX2, Xavier, Orin): its GPU has no memory of its own, it allocates
    // from the board's RAM, shared with the OS and every process (NVIDIA, Jetson's memory
    // architecture: one physical memory for the CPU and the integrated GPU).
    if (!ev_.unified_memory_line && has_text("jetson") && contains_word_start(lo, "jetson")) ev_.unified_memory_line = n;
    // CUDA's cudaErrorIllegalAddress as the runtime prints it ("CUDA error: an illegal memory access was
    // encountered", CUDA_ERROR_ILLEGAL_ADDRESS): a kernel read or wrote outside its buffers, no
    // allocation failed. Not the words alone ("I thought it was the illegal memory access issue from
    // #1234", "Last week I had 'an illegal memory access was encountered' but that was fixed").
    if (!ev_.illegal_access_line &&
        ((has_text("illegal memory access") &&
          (has_text("error: an illegal memory access") || has_text("error: illegal memory access"))) ||
         has_text("cuda_error_illegal_address"))) {
      ev_.illegal_access_line = n;
    }
    // An accelerator named as a word ("barracuda" names none), not a line telling there is none
    // ("the machine has no GPU").
    // (Also a GPU's model glued to its family's prefix, "rtx4090", "RTXA6000", "gtx1080ti".)
    if (!ev_.accelerator_line &&
        (has(kWAccel) || has(kWGpuName) || (has(kWMem) && has_text("vram") && contains_word(lo, "vram")) ||
         (has(kWSetting) && has_text("gpus") && contains_word(lo, "gpus")) ||
         ((has_text("rtx") || has_text("gtx")) && glued_gpu_model(lo))) &&
        !no_gpu_told(lo)) {
      ev_.accelerator_line = n;
    }
    // llama.cpp naming the buffer that failed: the KV cache ("llama_init_from_model: failed to
    // initialize the context: failed to allocate buffer for kv cache", "llama_kv_cache_init: failed
    // to allocate buffer"), which its alloc_tensor_range places as it places the weights: the
    // context, not the model.
    if (has(kWLlmGen) && (has_text("kv_cache_init: failed") ||
                          (has_text("failed to allocate buffer for kv cache") && has_text("llama_")))) {
      add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.55,
          "llama.cpp failed to allocate the KV cache's buffer (it grows with the context size): " + shown(raw.substr(0, 160)),
          0, Told::kPrinted);
      ev_.kv_cache_failed_lines.push_back(n);
    }
    if (has_text("head_dim")) kv_cache_allocated(raw, lo, n);
    // Darknet's mini-batch: its own hint after a failed cudaMalloc in cuda_make_array ("Try to set
    // subdivisions=64 in your cfg-file.", naming the cfg file) or the setting as its .cfg writes it
    // ("batch=64 subdivisions=16"; not "subdivisions of the batch" in another framework's words): each
    // pass holds batch / subdivisions images (darknet's parser.c: net->batch = batch / subdivs), the
    // images the device holds at once. Not where one image per pass is told already ("batch=1
    // subdivisions=1": nothing left to split).
    const auto one_image = [&] {
      const size_t p = lo.find("batch=1");
      return p != std::string_view::npos && (p + 7 == lo.size() || !is_digit(lo[p + 7]));
    };
    if (has_text("subdivisions") && !has_text("?") &&
        (has_text("subdivisions=") || has_text("subdivisions =") || has_text("cfg")) && !one_image()) {
      add(n, FactKind::kStatement, OomCause::kActivationsBatch, 0.3,
          "Darknet's mini-batch (batch / subdivisions images per pass) named: " + shown(raw.substr(0, 160)), 0,
          Told::kPrinted);
    }
    // ggml's graph allocator failing to reserve its compute buffers ("ggml_gallocr_reserve_n:
    // failed to allocate Vulkan0 buffer of size N", llama.cpp's "failed to allocate compute
    // buffers"): classify.cpp reads which (LogContext::compute_buffer_failed_line); llama.cpp's
    // context told ("llama_new_context_with_model: n_ctx = 8192", "llama_context:", "llama_kv_cache"):
    // the run's context size is its KV cache's.
    if ((has_text("gallocr_reserve") && has_text("failed to allocate")) || has_text("failed to allocate compute buffers")) {
      ev_.compute_buffer_failed_lines.push_back(n);
    }
    if (has_text("llama_new_context") || has_text("llama_context:") || has_text("llama_kv_cache")) {
      ev_.llama_context_lines.push_back(n);
    }
    // A large beam search set (num_beams=128): every beam keeps its own KV cache; 16 and up are
    // beyond the usual 4-8.
    if (has(kWLlmGen)) {
      if (const size_t p = lo.find("num_beams"); p != std::string_view::npos) {
        if (const auto v = number_after(lo, p + 9); v && *v >= 16 && *v <= 100000) {
          add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.4,
              fmt::format("logged num_beams={}: each beam keeps its own KV cache", *v), 0, Told::kPrinted);
        }
      }
    }
    // The beam size raised with memory growing ("when I increased the beam size, the GPU memory kept
    // increasing"): every beam keeps its own KV cache (generation), not a leak. The raise, the
    // beams and the memory in one clause, not denied.
    auto beams_in = [](std::string_view text) {
      return contains_any(text, {"beam size", "beam_size", "num_beams", "beam width", "number of beams"});
    };
    if (has(kWGrow) && has(kWMem) && !has_text("?") && beams_in(lo)) {
      for (std::string_view clause : clauses(lo)) {
        auto in = [&](std::string_view x) { return clause.find(x) != std::string_view::npos; };
        if (beams_in(clause) &&
            (in("increas") || in("raise") || in("larger") || in("higher") || in("bigger") || in("more beams")) &&
            (in("memory") || in("vram")) && !in("not ") && !in("n't") && !in("reduc") && !in("decreas") &&
            !in("lower")) {
          add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.5,
              "more beams, more memory: each beam keeps its own KV cache: " + shown(raw.substr(0, 160)));
          add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, -0.2, "");  // the growth this clause tells
          break;
        }
      }
    }
    if (has(kWCap) && !has_text("?")) cap_told(raw, lo, n);
    if (has(kWPrevious) && !has_text("?")) previous_kept(raw, lo, n);
    // Named as the engine, not as a person ("@travis") nor "actions" alone.
    auto engine_named = [&](std::string_view w) {
      for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
        if (is_word_at(lo, p, w.size()) && (p == 0 || lo[p - 1] != '@')) return true;
      }
      return false;
    };
    if (!ev_.host_engine_line && has(kWHostEngine) &&
        (lo.find("github actions") != std::string_view::npos ||
         std::any_of(std::begin(kHostEngineWords), std::end(kHostEngineWords), engine_named))) {
      ev_.host_engine_line = n;
    }
    if (((seen >> kWRam) & 1u) != 0 || ((seen >> kWMem) & 1u) != 0 || (cjk && has_text("\xe5\x86\x85\xe5\xad\x98"))) {
      host_ram_runs_out(raw, lo, n);  // 内存 (zh: memory, the host's; the GPU's is 显存)
      if (has_text("ram") && !code_line(lo)) {
        if (const auto full = host_ram_figures_full(lo); full && once_per_window(last_ram_, OomCause::kCpuRam, n)) {
          add(n, FactKind::kStatement, OomCause::kCpuRam, 0.45,
              fmt::format("host RAM at {} of {}, in the log's figures: ", format_bytes(full->first), format_bytes(full->second)) +
                  shown(raw.substr(0, 160)),
              0, Told::kAccount);
        }
      }
    }
    // A word of unevenness (gpu_memory_imbalance_prose() below reads only such lines); with the
    // memory named, read on.
    const bool first_only = (has_text("only") || cjk) && only_first_gpu_used(lo);
    const bool uneven_word = has_text("balanc") || has_text("uneven") || has_text("unequal") || has_text("than other") ||
                             has_text("than the other") || first_only ||
                             (cjk && (has_text("\xe5\x9d\x87\xe8\xa1\xa1") || has_text("\xe5\xb9\xb3\xe8\xa1\xa1")));  // 均衡, 平衡
    // The first GPU alone filling up, in words ("only cuda:0 fills up and crashes"): the memory is
    // what fills.
    const bool first_gpu_fills = first_only &&
                                 (has_text("fill") || has_text("full") || contains_word_start(lo, "oom") ||
                                  contains_word_start(lo, "crash") || contains_word(lo, "dies") || has_text("runs out") ||
                                  has_text("run out") || has_text("\xe5\x8d\xa0\xe6\xbb\xa1") ||
                                  has_text("\xe7\x88\x86"));  // 占满 (filled), 爆 (blew)
    const bool uneven_memory = (has(kWMem) && uneven_word) || first_gpu_fills;
    // The optimizer's memory, or a whole dataset held in memory, in words (read below).
    const bool optimizer_memory = (has(kWMem) || has_text("gb") || has_text("usage") || has_text("nvidia-smi") || cjk ||
                                   has_text("step()") || has_text(".step") || has_text("load_state") ||
                                   has_text("optimizer.pt") || has_text("state")) &&
                                  (has_text("adam") || has_text("optimi") || has_text("momentum") || has_text("moments") ||
                                   has_text("sgd") || has_text("adafactor") || has_text("lion") ||
                                   has_text("\xe4\xbc\x98\xe5\x8c\x96\xe5\x99\xa8")) &&
                                  optimizer_memory_told(lo);
    const bool data_in_memory = (has_text("in memory") || has_text("into memory") || has_text("the memory") ||
                                 (cjk && has_text("\xe5\x86\x85\xe5\xad\x98")) ||
                                 has_text("in ram") || has_text("into ram") || has_text("the ram") || has_text(" ram") ||
                                 has_text("host memory") || has_text("cpu memory") || has_text("system memory")) &&
                                whole_data_in_host_memory(lo);
    const bool dataset_cached = has_text("cach") && dataset_cached_in_memory(lo);  // read below
    const bool arena_keeps = has_text("arena") && arena_keeps_blocks(lo);           // read below
    // The GPU named (GPU memory a finished process left behind is read below on such a line).
    const bool gpu_named_here = has(kWGpuName) || has_text("gpu") || has_text("cuda") || has_text("vram") ||
                                has_text("nvidia") || has_text("rank") || has_text("\xe6\x98\xbe\xe5\xad\x98");  // 显存
    // The words of the readings of a chat's turns, a kernel's workspace and runs on one card
    // (zh 单卡, 一张卡: one card; 对话, 聊天, 交互: dialogue, chat, interaction).
    const bool turn_or_card = has_text("turn") || has_text("chat") || has_text("conversation") || has_text("dialog") ||
                              has_text("workspace") || has_text("prompt") || has_text("message") ||
                              (cjk && (has_text("\xe5\x8d\x95\xe5\x8d\xa1") || has_text("\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1") ||
                                       has_text("\xe5\xaf\xb9\xe8\xaf\x9d") || has_text("\xe8\x81\x8a\xe5\xa4\xa9") ||
                                       has_text("\xe4\xba\xa4\xe4\xba\x92")));
    // zh: the memory (内存 the host's, 显存 the GPU's) said to keep growing: 一直/不断/持续/逐渐/慢慢/逐步 +
    // 增加/上涨/上升/增长/变大 (keeps increasing, rising, growing), 越来越多/越来越大 (more and more); also
    // asked only why, the going-on told in that clause ("都会慢慢增加这是为什么？").
    const bool zh_memory_grows = [&] {
      if (!cjk || !(has_text("\xe5\x86\x85\xe5\xad\x98") || has_text("\xe6\x98\xbe\xe5\xad\x98"))) return false;
      // The growth word's own sentence neither denies nor asks it (zh_not_told_at()).
      // Nor in a clause that tells the memory stable: 稳定 (stable), 不变 (unchanged), 没有泄 (no leak):
      // "内存没有泄漏，随着 epoch 增加内存也稳定" (but "显存稳定在6G。内存不断在增加" grows).
      auto stable_clause = [&](size_t p) {
        const std::string_view c = clause_at(lo, p);
        return c.find("\xe7\xa8\xb3\xe5\xae\x9a") != std::string_view::npos ||
               c.find("\xe4\xb8\x8d\xe5\x8f\x98") != std::string_view::npos ||
               c.find("\xe6\xb2\xa1\xe6\x9c\x89\xe6\xb3\x84") != std::string_view::npos;
      };
      auto told = [&](std::string_view x) {
        const size_t p = lo.find(x);
        return p != std::string_view::npos && !zh_not_told_at(lo, p) && !stable_clause(p) && !zh_setting_near(lo, p, p + x.size());
      };
      if (told("\xe8\xb6\x8a\xe6\x9d\xa5\xe8\xb6\x8a\xe5\xa4\x9a") || told("\xe8\xb6\x8a\xe6\x9d\xa5\xe8\xb6\x8a\xe5\xa4\xa7")) return true;
      // 不能释放 / 无法释放 (cannot be freed: "内存不能释放，会一直占用内存直到死机"): each use's memory stays.
      if (told("\xe4\xb8\x8d\xe8\x83\xbd\xe9\x87\x8a\xe6\x94\xbe") || told("\xe6\x97\xa0\xe6\xb3\x95\xe9\x87\x8a\xe6\x94\xbe") ||
          told("\xe9\x87\x8a\xe6\x94\xbe\xe4\xb8\x8d\xe4\xba\x86")) {  // (and 释放不了)
        return true;
      }
      // 一直, 不断, 持续, 逐渐, 慢慢, 逐步 (all along, continually, steadily, gradually, slowly, step by step);
      // 随着 (as ... goes on: "随着迭代次数的增加内存的使用量也在增加", memory use rises as the iterations do);
      // 每次 (each time: "每次增加200M左右", up about 200M on every call). A rise beside a setting's name is
      // the user's raising of it (zh_setting_near(): "我逐步增加了batch size").
      const bool ongoing_zh = std::any_of(std::begin(kZhOngoing), std::end(kZhOngoing), has_text) ||
                              has_text("\xe9\x9a\x8f\xe7\x9d\x80") ||  // (kZhOngoing, and 随着)
                              has_text("\xe4\xb8\x8d\xe5\x81\x9c");   // 不停 (without stopping: "不停地涨")
      const bool rises_zh = told("\xe5\xa2\x9e\xe5\x8a\xa0") || told("\xe4\xb8\x8a\xe6\xb6\xa8") ||
                            told("\xe4\xb8\x80\xe7\x9b\xb4\xe6\xb6\xa8") ||  // 一直涨 (keeps rising)
                            zh_is_rising(lo) ||  // 在涨 (is rising: "一直在涨"), 往上走 / 往上涨 / 地涨
                            told("\xe4\xb8\x8a\xe5\x8d\x87") || told("\xe5\xa2\x9e\xe9\x95\xbf") ||
                            told("\xe5\x8f\x98\xe5\xa4\xa7");
      if (ongoing_zh && rises_zh) return true;
      // A rise asked only why, told going on in that same clause (zh_rise_asked_why(): "都会慢慢增加这是
      // 为什么？", why does it keep rising?): the growth is seen.
      for (std::string_view x : kZhRise) {
        const size_t p = lo.find(x);
        if (p != std::string_view::npos && zh_rise_asked_why(clause_at(lo, p)) && !stable_clause(p)) return true;
      }
      return false;
    }();
    // zh: intermediate results told kept on the GPU (保存 / 保留 / 存 ... 在gpu上 / 在显存: "怀疑是保存了一些
    // 中间量在gpu上，导致显存不足", kept some intermediate values on the GPU), not denied or asked.
    // Only the run's results (中间 intermediate, 结果 results, 预测 predictions, 输出 outputs, 张量 tensors,
    // loss, logits), not parameters, a dataset or a checkpoint; not 不 / 别 / 没 / 未 before the keeping.
    const bool zh_kept_on_device = [&] {
      if (!cjk) return false;
      const size_t keep = std::min({lo.find("\xe4\xbf\x9d\xe5\xad\x98"), lo.find("\xe4\xbf\x9d\xe7\x95\x99")});  // 保存, 保留
      if (keep == std::string_view::npos) return false;
      const size_t on = std::min(lo.find("\xe5\x9c\xa8gpu", keep), lo.find("\xe5\x9c\xa8\xe6\x98\xbe\xe5\xad\x98", keep));  // 在gpu, 在显存
      if (on == std::string_view::npos || on >= keep + 60 || zh_not_told_at(lo, keep)) return false;
      for (std::string_view neg : {"\xe4\xb8\x8d", "\xe5\x88\xab", "\xe6\xb2\xa1", "\xe6\x9c\xaa"}) {  // 不, 别, 没, 未
        if (keep >= neg.size() && lo.substr(keep - neg.size(), neg.size()) == neg) return false;
      }
      const std::string_view kept = lo.substr(keep, on - keep);
      return contains_any(kept, {"\xe4\xb8\xad\xe9\x97\xb4", "\xe7\xbb\x93\xe6\x9e\x9c", "\xe9\xa2\x84\xe6\xb5\x8b",
                                 "\xe8\xbe\x93\xe5\x87\xba", "\xe5\xbc\xa0\xe9\x87\x8f", "loss", "logit"});
    }();
    // zh: a leak of the memory told (内存泄漏 / 内存泄露, 显存泄漏 / 显存泄露: memory leak), as "memory leak"
    // is read; not denied, asked or supposed (zh_not_told_at(): "未出现内存泄漏", no leak appeared).
    const bool zh_memory_leaks = [&] {
      if (!cjk) return false;
      for (std::string_view mem : {std::string_view("\xe5\x86\x85\xe5\xad\x98"), std::string_view("\xe6\x98\xbe\xe5\xad\x98")}) {
        for (std::string_view leak : {std::string_view("\xe6\xb3\x84\xe6\xbc\x8f"), std::string_view("\xe6\xb3\x84\xe9\x9c\xb2")}) {
          const std::string x = std::string(mem) + std::string(leak);
          const size_t p = lo.find(x);
          if (p != std::string_view::npos && !zh_not_told_at(lo, p)) return true;
        }
      }
      return false;
    }();
    // zh: inference or evaluation told (0 none, 1 the word alone, 2 as when it fails): 推理 (inference;
    // not 推理速度, its speed) with 时 / 的时候 / 过程 / 阶段 after it (at the time, during) or alone;
    // 预测时 / 评估时 / 验证时 / 测试时 (at prediction / evaluation / validation / test time), also with what
    // is tested between (在测试...时). Not denied or asked (zh_not_told_at()).
    const int zh_inference = [&] {
      if (!cjk) return 0;
      int best = 0;
      constexpr std::string_view kInfer = "\xe6\x8e\xa8\xe7\x90\x86";  // 推理
      for (std::string_view x : {kInfer, std::string_view("\xe9\xa2\x84\xe6\xb5\x8b\xe6\x97\xb6"),
                                 std::string_view("\xe8\xaf\x84\xe4\xbc\xb0\xe6\x97\xb6"),
                                 std::string_view("\xe9\xaa\x8c\xe8\xaf\x81\xe6\x97\xb6"),
                                 std::string_view("\xe6\xb5\x8b\xe8\xaf\x95\xe6\x97\xb6"),
                                 // 预测的时候 / 评估的时候 / 验证的时候 / 测试的时候 (when predicting / evaluating / validating / testing)
                                 std::string_view("\xe9\xa2\x84\xe6\xb5\x8b\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99"),
                                 std::string_view("\xe8\xaf\x84\xe4\xbc\xb0\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99"),
                                 std::string_view("\xe9\xaa\x8c\xe8\xaf\x81\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99"),
                                 std::string_view("\xe6\xb5\x8b\xe8\xaf\x95\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99")}) {
        for (size_t p = lo.find(x); p != std::string_view::npos; p = lo.find(x, p + 1)) {
          const std::string_view next = lo.substr(p + x.size());
          // 速度 (speed); 时间 (duration: 测试时间 the test's duration, 验证时间 the validation's)
          if (next.substr(0, 6) == "\xe9\x80\x9f\xe5\xba\xa6" || zh_not_told_at(lo, p)) continue;
          if (x != kInfer && next.substr(0, 3) == "\xe9\x97\xb4") continue;
          if (x == kInfer && next.substr(0, 9) == "\xe6\x97\xb6\xe9\x97\xb4") continue;  // 推理时间 (inference time)
          const bool when = x != kInfer || next.substr(0, 3) == "\xe6\x97\xb6" || next.substr(0, 9) == "\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99" ||
                            next.substr(0, 6) == "\xe8\xbf\x87\xe7\xa8\x8b" || next.substr(0, 6) == "\xe9\x98\xb6\xe6\xae\xb5";
          best = std::max(best, when ? 2 : 1);
        }
      }
      // 在 + 预测 / 评估 / 验证 / 测试 + what is tested + 时 (when testing it: "在测试widerface时总是out of
      // memory"), the 时 in the same clause (before "，" / "," / "。") and not 时间 (duration); nor
      // testing a training (训练 / 微调 / train between: "在测试多卡训练时" tests a training run).
      for (std::string_view x : {std::string_view("\xe5\x9c\xa8\xe9\xa2\x84\xe6\xb5\x8b"), std::string_view("\xe5\x9c\xa8\xe8\xaf\x84\xe4\xbc\xb0"),
                                 std::string_view("\xe5\x9c\xa8\xe9\xaa\x8c\xe8\xaf\x81"), std::string_view("\xe5\x9c\xa8\xe6\xb5\x8b\xe8\xaf\x95")}) {
        for (size_t p = lo.find(x); best < 2 && p != std::string_view::npos; p = lo.find(x, p + 1)) {
          if (zh_not_told_at(lo, p)) continue;
          std::string_view next = lo.substr(p + x.size(), 48);
          next = next.substr(0, std::min({next.find("\xef\xbc\x8c"), next.find(','), next.find("\xe3\x80\x82"), next.size()}));
          // 时, not inside another word: 同时 (at the same time), 小时 (hours), 实时 (real time), 及时 (in
          // time), 临时 (temporary).
          size_t at = next.find("\xe6\x97\xb6");  // 时
          while (at != std::string_view::npos && at >= 3 &&
                 contains_any(next.substr(at - 3, 3), {"\xe5\x90\x8c", "\xe5\xb0\x8f", "\xe5\xae\x9e", "\xe5\x8f\x8a", "\xe4\xb8\xb4"})) {
            at = next.find("\xe6\x97\xb6", at + 3);
          }
          if (at == std::string_view::npos) continue;
          const std::string_view between = next.substr(0, at);
          const bool training = between.find("\xe8\xae\xad\xe7\xbb\x83") != std::string_view::npos ||  // 训练
                                between.find("\xe5\xbe\xae\xe8\xb0\x83") != std::string_view::npos ||  // 微调
                                between.find("train") != std::string_view::npos;
          // (时间 read from the line itself: the window may end inside it.)
          if (!training && lo.substr(p + x.size() + at, 6) != "\xe6\x97\xb6\xe9\x97\xb4") best = 2;
        }
      }
      return best;
    }();
    const bool items_per_call = (has_text("at once") || has_text("request") || has_text("ask") || has_text(" per ") ||
                                 has_text("in one") || has_text("in a single")) &&
                                items_per_call_told(lo);
    const bool setting_ignored = (has_text("effect") || has_text("ignore") || has_text("respect") ||
                                  has_text("honor") || has_text("nothing") || has_text("t work") || has_text("not working") ||
                                  has_text("take into") || has_text("account for") ||
                                  // a concession before a placement's setting (the line names the device or its knob)
                                  ((has_text("even ") || has_text("despite") || has_text("spite of") || has_text("although")) &&
                                   (has_text("gpu") || has_text("cuda") || has_text("device") || has_text("cpu"))) ||
                                  (cjk && has_text("\xe7\x94\xa8")) || (cjk && has_text("\xe7\x94\x9f\xe6\x95\x88"))) &&
                                 placement_setting_ignored(lo);  // 用 (use: 作用, 没用), 生效 (take effect)
    // (Not a GPU's dataframe, cuDF's, nor one told on the GPU or with its memory; not denied.)
    // Another GPU than the first chosen (here or on an earlier line), and the work told landing on the
    // first anyway (work_lands_on_first_gpu()).
    if (!gpu_chosen_line_ && (has_text("cuda") || has_text("gpu") || has_text("device")) && nonzero_gpu_chosen(lo)) {
      gpu_chosen_line_ = n;
    }
    // ... or several GPUs asked for on the line ("test.py provides API for multi-GPUs testing ... the
    // program seems to request memory on only GPU 0").
    const bool several_gpus_here = (has_text("gpus") || has_text("multi")) &&
                                   contains_any(lo, {"multi-gpu", "multi gpu", "multiple gpus", "several gpus", "all gpus",
                                                     "all the gpus", "all my gpus"});
    const bool lands_on_first_gpu = (gpu_chosen_line_ > 0 || several_gpus_here) &&
                                    (has_text("cuda") || has_text("gpu") || has_text("device") || has_text("index")) &&
                                    work_lands_on_first_gpu(lo);
    // Growth told in words the words() table does not hold ("more and more", "keeps filling", "never
    // cleared"): read below with the growth readings.
    // (And memory told to go up, "Memory goes up and up every iteration", a line with no word of the
    // table's gate: the growth reading below, goes_up, weighs its repeat and its subject.)
    static constexpr std::string_view kGoUp[] = {"goes up", "going up", "went up", "go up"};
    const bool growth_in_other_words = has_text("more and more") || has_text("keeps filling") || has_text("keep filling") ||
                                       has_text("never cleared") || has_text("never gets cleared") ||
                                       has_text("never get cleared") ||
                                       (has(kWMem) && has_text(" up") &&
                                        std::any_of(std::begin(kGoUp), std::end(kGoUp), has_text));
    const bool dataframe_memory = (has_text("dataframe") || has_text("pandas") || has_text("polars")) &&
                                  (contains_word_start(lo, "dataframe") || contains_word(lo, "pandas") ||
                                   contains_word(lo, "polars")) &&
                                  (has(kWMem) || has(kWRam) || has_text("memoryerror")) && !has_text("version") &&
                                  !has_text("cudf") && !has_text("rapids") && !gpu_named(lo) && !cuda_memory_named(lo) &&
                                  !has_text("not ") && !has_text("n't ");
    // Two models' weights, or two copies of one model's, resident at once ("two models are kept on
    // the GPU at the same time", "as we are keeping it twice", zh "需要同时加载两个预训练模型": two
    // pretrained models have to be loaded at the same time): static memory twice over. Not a second
    // copy of optimizer state or of host buffers, nor one process per rank or worker each holding one.
    const bool two_models = has_text("two models") || has_text("both models") || has_text("two copies of the model") ||
                            has_text("model twice") || has_text("keeping it twice") || has_text("loaded twice") ||
                            has_text("two pretrained models") || has_text("two pre-trained models") ||
                            has_text("all models") || has_text("all the models") ||
                            // "both the Whisper and the alignment model"
                            (has_text("both the ") && has_text(" and the ") && has_text(" model")) ||
                            (has_text("\xe4\xb8\xa4\xe4\xb8\xaa") && has_text("\xe6\xa8\xa1\xe5\x9e\x8b"));  // 两个, 模型
    const bool at_once = has_text("at the same time") || has_text("simultaneous") || has_text("at once") || has_text("kept on") ||
                         has_text("keeping") || has_text("kept in") || has_text("on the gpu") || has_text("in vram") ||
                         has_text("twice") || has_text("for both") || has_text("\xe5\x90\x8c\xe6\x97\xb6");  // 同时 (at the same time)
    // A list of the run's tensors told growing on the device; CUDA contexts created in worker
    // processes; llama.cpp's split over devices told off from the one asked (read below).
    auto asked = [&] { return lo.find('?') != std::string_view::npos; };  // after the cheap tests: it scans the line
    // (The list told growing on the device, or a list of tensors / outputs / losses told growing
    // beside the OOM; not supposed, retracted or denied, nor a list of other things.)
    const bool list_grows =
        has_text("list") && (contains_word(lo, "list") || contains_word(lo, "lists")) && !asked() &&
        (contains_any(lo, {"grow on gpu", "grow on the gpu", "grows on gpu", "grows on the gpu", "growing on gpu",
                           "growing on the gpu", "grow in gpu memory", "grows in gpu memory", "accumulates on the gpu",
                           "accumulating on the gpu", "accumulate on the gpu"}) ||
         (contains_any(lo, {"grow", "accumulat", "piles up"}) && contains_any(lo, {"gpu", "cuda", "oom", "out of memory"}) &&
          contains_any(lo, {"tensor", "output", "loss", "logit", "pred", "embedding", "activation"}))) &&
        !contains_any(lo, {"not grow", "n't grow", "no longer grow", "stops growing", "would", "if ", "might", "maybe",
                           "not the case", "with batch", "with the batch", "batch size", "supported", "request", "file",
                           "layer", "block"});
    const bool worker_contexts = has_text("context") &&
                                 contains_any(lo, {"worker", "subprocess", "child process", "forked"}) && !asked() &&
                                 contains_any(lo, {"cuda", "gpu"}) &&
                                 contains_any(lo, {"creat", "initializ", "idle", "holding", "each", "every", "per worker"}) &&
                                 !contains_any(lo, {"no context", "without a context", "without creating", "not creat",
                                                    "n't creat", "avoid", "unrelated", "negligible", "by design", "intended",
                                                    "would", "if ", "fixed", "no longer", "spark", "on purpose", "docs",
                                                    "documentation", "num_workers=0"});
    const bool split_told_off = has_text("split") && !asked() &&
                                contains_any(lo, {"tensor split", "tensor-split", "tensor_split", "-ts ratio", "split ratio"}) &&
                                contains_any(lo, {"drift", "uneven", "unbalanced", "imbalanc", "ignored", "not respected",
                                                  "n't respected", "differs", "wrong", "more than", "skew", "bias"});
    // Lines the readings below look for by phrase, without a word of the table: a VAE's decode, arrays
    // kept ("persistent", "held onto").
    // (By the word table's cue words, not a search of every line.)
    const bool kept_line = has(kWKeptCue);
    // ComfyUI's "VAE Decode" node; a video's decoder or latents decoded told without the word VAE ("in the video
    // decoder step OOM", "OOM when decoding the latents")
    // (A video decoder beside a generation's words, not a hardware video decoder reading clips; latents
    // decoded, not a "latent attention" while decoding tokens.)
    const bool vae_decode_words =
        (has_text("video decoder") && (has_text("generat") || has_text("latent") || has_text("sampl") || has_text("diffusion")) &&
         !has_text("nvdec") && !has_text("hardware")) ||
        (has_text("decod") && (has_text("latents") || has_text("latent decod") || has_text("latent shape")) &&
         !has_text("latent attention"));
    const bool vae_line = (kept_line && has_text("vae")) || has_text("vae decode") || vae_decode_words;
    const bool hardcoded_memory = (has_text("hardcode") || has_text("hard-code") || has_text("hard code")) &&
                                  hardcoded_memory_size(lo);
    // Windows' paging file told changed or capped ("I set the pagefile.sys to a maximum of 8gb"): the
    // commit limit the host's allocations (DirectML's, CUDA's pinned ones, the model's load) count
    // against, lowered.
    const bool paging_file_set = (has_text("page") || has_text("paging") || has_text("virtual")) &&
                                 windows_paging_file(lo) &&
                                 contains_any(lo, {"set ", "change", "limit", "maximum", "lower", "reduc", "disabl", "small",
                                                   "capped"}) &&
                                 !contains_any(lo, {"virtual memory management", "?"});
    // (A regression told, read below: a commit, release, version, update or upgrade named.)
    const bool change_named = pairs_.may_contain("commit") || pairs_.may_contain("release") ||
                              pairs_.may_contain("version") || pairs_.may_contain("updat") || pairs_.may_contain("upgrad");
    // (A recurrent net cloned per time step, read below: "cloning rnn", clone_many_times.)
    const bool clones_per_step =
        (pairs_.may_contain("cloning rnn") && lo.find("cloning rnn") != std::string_view::npos) ||
        (pairs_.may_contain("clone_many_times") && lo.find("clone_many_times") != std::string_view::npos);
    // A numpy / SciPy array told failing with a memory error (read below, at host RAM).
    const bool numpy_array_error = (has_text("np.") || has_text("numpy.") || has_text("scipy.")) &&
                                   (has_text("memory error") || has_text("unable to allocate"));
    // A cloud machine's type named (read below).
    const bool machine_type = has_text("machine") &&
                              (has_text("machinetype") || has_text("machine type") || has_text("machine_type") ||
                               has_text("bigger machine") || has_text("larger machine")) &&
                              !has_text("machine translation") && !has_text("machine learning") &&
                              !has_text("machine-learning");
    // Adapters merged into the model (read below).
    const bool merge_line = has_text("merg") && (has_text("lora") || has_text("adapter") || has_text("convert merge") ||
                                                 has_text("merge_and_unload") || has_text("merge_lora") || has_text("peft"));
    // A point cloud's points counted, or too many of them (read below).
    const bool points_line = has_text("points") && (has_text("point cloud") || has_text("pointcloud") ||
                                                    has_text("point-cloud") || has_text("number of points") ||
                                                    has_text("too many points") || has_text("s of points"));
    // A model's parameters counted, or a system's atoms (read below: a small model, many atoms).
    const std::optional<double> millions = has_text("param") ? millions_of_parameters(lo) : std::nullopt;
    const bool count_line = millions.has_value() || has_text("atom");
    // An HPC job's memory, or a load, read or build told (the dataset's), read below whatever other words
    // the line holds ("I requested 64GB of memory from our HPC cluster and still ran out", "While
    // reading the CSV files the process ran out of memory").
    const bool hpc_or_load_line = has_text("hpc") || has_text("loading ") || has_text("reading ") || has_text("building ") ||
                                  has_text("preparing ") || has_text("preprocessing ") || has_text("tokenizing ");
    // A point cloud's voxel or grid size named (read below).
    // (A grid's size only beside a point cloud's words: not a CUDA kernel's launch grid.)
    const bool voxel_line = (has_text("voxel") || has_text("grid")) &&
                            (contains_any(lo, {"voxel size", "voxel_size", "voxel resolution"}) ||
                             (contains_any(lo, {"grid size", "grid_size"}) &&
                              contains_any(lo, {"point", "lidar", "voxel", "waymo", "nuscenes", "kitti", "scannet"}) &&
                              !contains_any(lo, {"kernel", "shared memory", "block size", "threads"})));
    // The convolution algorithm a library picks, a backbone or a model's variant made smaller (read below).
    // (Each read once here, for the gate and for the readings below.)
    const bool algorithm_choice = (has_text("algo") || has_text("autotun")) && convolution_algorithm_choice_told(lo);
    const bool made_smaller = (has_text("backbone") || has_text("encoder") || has_text("variant") || has_text("smaller model") ||
                               has_text("smallest model") || has_text("tiny model")) &&
                              model_made_smaller_yet_fails(lo);
    const bool algorithm_or_backbone = algorithm_choice || made_smaller;
    // The process told killed by the system in other words than the word table's ("the system end it
    // by killing the process"; read below, process_killed_told()).
    const bool kill_told = has_text("kill") && process_killed_told(lo);
    // A rollback told making the failure go away (rollback_fixed(), read below), on a line of no other
    // word the gate knows ("I reverted back to 0.3.7 and the problem went away").
    const bool rollback = has_text(" to ") &&
                          (has_text(" back to ") || has_text("revert") || has_text("downgrad")) && rollback_fixed(lo);
    if ((seen & kRelevant) == 0 && !tf_device_line && !phrase_line && dims.weight == 0.0 && !uneven_memory && !vae_line &&
        !algorithm_or_backbone && !kill_told &&
        !numpy_array_error && !points_line && !merge_line && !machine_type && !count_line && !voxel_line && !hpc_or_load_line &&
        !clones_per_step && !change_named &&
        !kept_line &&
        !optimizer_memory && !data_in_memory && !dataset_cached && !arena_keeps && !gpu_named_here && !turn_or_card &&
        !zh_memory_grows && !zh_memory_leaks && !zh_kept_on_device && !zh_inference && !dataframe_memory && !items_per_call && !setting_ignored &&
        !lands_on_first_gpu && !growth_in_other_words && !(two_models && at_once) && !(has(kWLoss) && has_text(".item()")) &&
        !rollback &&
        !list_grows && !worker_contexts && !split_told_off && !hardcoded_memory && !paging_file_set && example_size.empty() &&
        // (Chinese with the batch named, "不管batchsize设置多少都会报错": its readings are below, the word table's
        // ASCII words aside.)
        (ascii_ || !has_text("batch"))) {
      return;
    }
    // A sentence, not code or a program's output (several readings below need it).
    const bool sentence = !code_line(lo) && !printed_line(raw, lo);
    // The OOM message's own words ("fragmentation", "expandable_segments") are not evidence;
    // a sentence that names the OOM ("I received a CUDA out of memory during evaluation") is.
    if (has_text("tried to allocate") || has_text("alloc_failed") ||
        has_text("resource_exhausted") || has_text("failed to allocate") ||
        has_text("reserved by pytorch") ||
        (has_text("out of memory") &&
         (has_text("error:") || has_text("exception:") ||
          has_text("memoryerror") || has_text("error : out of memory")))) {
      // The message itself (a sentence about it, "an out of memory error because ...", is read on).
      // Prose before the message on the same line still counts: "if the output is too long
      // (~1000 characters), torch.cuda.OutOfMemoryError: ...". It ends where the message's own
      // words start (message_head()), or without "out of memory" at the first "error".
      const size_t head = message_head(lo);
      const std::string_view before = lo.substr(0, head != std::string_view::npos ? head : lo.find("error"));
      if (long_inputs(before, has(kWInputSize), pairs_)) {
        add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35,
            "long inputs, in the user's words: " + shown(raw.substr(0, std::min<size_t>(160, before.size()))));
      }
      // Whole sentences of the user's before the message, read as a statement of their own: "I was
      // already using up 95% of my GPU memory for another task. Then when I ran `reader.readtext` I got
      // a `RuntimeError: cuda runtime error (2) : out of memory`".
      // (Not a message printed before it on the line, "RuntimeError: CUDA error: device-side assert
      // triggered. Later RuntimeError: CUDA out of memory", nor code or a program's output.)
      if (const size_t stop = before.rfind(". "); stop != std::string_view::npos && stop > 0) {
        const std::string_view sentences_before = lo.substr(0, stop + 1);
        if (!contains_any(sentences_before, {"error:", "exception:", "traceback (most recent call last)", "file \"", ", line "}) &&
            !code_line(sentences_before) && !printed_line(raw.substr(0, stop + 1), sentences_before)) {
          statement(raw.substr(0, stop + 1), sentences_before, n, seen);
        }
      }
      // ... and the one sentence of eight words or more that runs into the message, up to where the
      // message's own words start (message_head()): "Hi, when I use a single TITAN X to train the
      // model with default settings, it just comes out with RuntimeError: CUDA out of memory", "I get an
      // error when I train on one GPU: RuntimeError: ..." (not a logger's or a program's prefix,
      // "[rank0]: torch.cuda.", nor a traceback flattened onto the line). It holds none of the
      // message's words that brought the line here, so the reading ends.
      if (head != std::string_view::npos && head > 0) {
        const size_t stop = before.rfind(". ");
        const size_t from = stop == std::string_view::npos ? 0 : stop + 2;
        const std::string_view last = before.substr(from);
        size_t plain = 0;
        for_each_token(last, [&](size_t i, size_t j) {
          plain += j - i >= 2 && std::all_of(last.begin() + i, last.begin() + j, [](char c) { return is_alpha(c); });
          return true;
        });
        if (plain >= 8 &&
            !contains_any(last, {"tried to allocate", "alloc_failed", "resource_exhausted", "failed to allocate",
                                 "reserved by pytorch", "out of memory", "traceback (most recent call last)", "file \"",
                                 ", line "}) &&
            !code_line(last) && !printed_line(raw.substr(from, last.size()), last)) {
          statement(raw.substr(from, last.size()), last, n, seen);
        }
      }
      // Prose after the message on the same line is the user's, read as a statement of its own
      // (the line's words were scanned already): "... OutOfMemoryError: CUDA out of memory. But I
      // see that 3090 is used in your paper ... I run a smaller picture is normal".
      if (const size_t tail = prose_after_message(lo); tail != std::string_view::npos) {
        statement(raw.substr(tail), lo.substr(tail), n, seen);
      }
      return;
    }
    auto contains = has_text;
    // PaddlePaddle's advice printed under its OOM message ("Please check whether there is any
    // other process using GPU 0. 1. If yes, please stop them, ... 2. If no, please decrease the
    // batch size of your model"): the message's words, not the user's.
    if (printed_advice_by(has_text)) return;
    const bool negated = has(kWNot) && clause_negated(lo);  // (the line read as one clause)
    auto text = [&] { return shown(raw.substr(0, 160)); };
    // The mark of tensors kept across steps (LogContext::tensors_kept_line), which lets a leak
    // outrank host RAM: not under no_grad (no graph is kept), not where the fix is told as failed
    // ("I changed it to loss.item() but it is still killed").
    auto kept_mark = [&]() -> char {
      return contains("no_grad") || contains("inference_mode") || contains("still") || contains("didn't help") ||
                     contains("did not help") || contains("no difference")
                 ? 0
                 : 'k';
    };
    // A word of failure on the line ("fails even at batch size 1", "one image alone crashes"), not
    // a settings dump or a success; read only where a rule needs it.
    // (zh: the batch-1 reading itself needs the failure told going on, zh_batch_one_fails().)
    auto said_of_failure = [&] {
      return contains("fail") || contains("error") || contains("crash") || contains("oom") || contains("out of memory") ||
             contains("even") || contains("still") || contains("can't") || contains("cannot") || contains("unable") ||
             contains("not enough") || (cjk && zh_batch_one_fails(lo));
    };
    // torch.no_grad told as the fix or as what is missing, in prose: "it is necessary to add the
    // torch.no_grad decorator", "wrap post-quantization generation in torch.no_grad()", "evaluate
    // without torch.no_grad()". Not a fix told as failed ("I added torch.no_grad() but memory still
    // grows"); code that uses no_grad ("with torch.no_grad():") holds none of these words. From
    // then on, the autograd graph said to be kept, or memory said to grow with it, is the graph of
    // work that needs no gradient: eval_without_no_grad, not a leak of references.
    if (has(kWNoGrad) && !negated && !contains("still") && !contains("didn't") && !contains("did not") &&
        !contains("doesn't") && !contains("no effect") && !contains("not help") && !contains("already") &&
        !contains("?") && !contains("but that") && !contains("last week") && !contains("in use") &&
        (contains("add") || contains("wrap") || contains("necessary") || contains("decorat") || contains("without") ||
         contains("missing") || contains("forgot") || contains("lack"))) {
      if (!no_grad_fix_line_) no_grad_fix_line_ = n;
    }
    // The fix told as failed on a line soon after ("Thanks, I tried that, still OOM"): not the fix.
    if (no_grad_fix_line_ > 0 && n > no_grad_fix_line_ && n - no_grad_fix_line_ <= 3 &&
        (contains("still") || contains("tried that") || contains("didn't help") || contains("did not help"))) {
      no_grad_fix_line_ = -1;  // told as failed: read no more lines so
    }
    // Training's own graph kept (gradient accumulation, retain_graph, a loss kept without .item())
    // is a leak whatever no_grad did elsewhere.
    const bool training_graph = contains("optimizer") || contains("accumulat") || contains("retain_graph") ||
                                contains(".item()") || contains("append") || contains("training");
    const bool graph_of_no_grad_work =
        no_grad_fix_line_ > 0 && !training_graph &&
        (contains("grad graph") || contains("gradient") || contains("graph") || contains("autograd") || contains("backward") ||
         contains("no_grad"));
    // An image's size set by flags or settings ("--height 5712 --width 4284", "height=2048",
    // "width: 3072", "max_h = 1792, max_w = 1344", "img_h: 1024", not quoted markup), on one line or
    // on lines up to 20 apart: from a megapixel (1024x1024) up, the
    // input's size is weighed as a resolution printed "WxH" is (input_dims()).
    // Not a page's, a widget's, a plot's or a screen's size (HTML, gr.Chatbot(height=...), wandb,
    // plotly, a monitor).
    if (has(kWDim) && !dims_told_ && lo.find('<') == std::string_view::npos &&
        !contains_any(lo, {"figsize", "chatbot", "gr.", "wandb", "plot", "layout", "monitor", "screen", "display", "window",
                           "style", "tile"})) {
      static constexpr std::pair<std::string_view, bool> kDimNames[] = {
          {"height", true},      {"width", false},     {"max_h", true},        {"max_w", false},
          {"img_h", true},       {"img_w", false},     {"img_height", true},   {"img_width", false},
          {"image_height", true}, {"image_width", false}};
      bool height_here = false, width_here = false;  // (the first of each on the line)
      for (const auto& [w, is_height] : kDimNames) {
        if (is_height ? height_here : width_here) continue;
        for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
          if (!is_word_at(lo, p, w.size())) continue;
          // A flag of its own ("--height", "-height") or a setting's name, not a part of another's
          // ("--tile-height", "max_height").
          if (p > 0 && (lo[p - 1] == '-' || lo[p - 1] == '_') && p > 1 && lo[p - 2] != '-' && lo[p - 2] != ' ') continue;
          size_t k = p + w.size();
          while (k < lo.size() && (lo[k] == ' ' || lo[k] == '=' || lo[k] == ':')) ++k;
          size_t e = k;
          int64_t v = 0;
          while (e < lo.size() && is_digit(lo[e]) && e - k < 7) v = v * 10 + (lo[e++] - '0');
          if (e == k || (e < lo.size() && (word_char(lo[e]) || lo[e] == '.')) || v < 256 || v > 100000) continue;
          auto& dim = is_height ? height_ : width_;
          dim = {n, v};
          (is_height ? height_here : width_here) = true;
          break;
        }
      }
      if (height_.first > 0 && width_.first > 0 && std::abs(height_.first - width_.first) <= 20 &&
          height_.second * width_.second >= 1024 * 1024) {
        dims_told_ = true;
        add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.3,
            "an input of " + std::to_string(width_.second) + "x" + std::to_string(height_.second) +
                " set (width / height): activations grow with the input's size: " + text());
      }
    }
    // Growth step after step: a leak (or, in inference, graphs kept per batch). Piling up is
    // growth over repeats by itself: "GPU memory use piles up and crashes the session" (not "piles
    // of RAM", "piles of reports").
    const bool piles_up = contains("piles up") || contains("piling up");
    // "More and more" memory ("uses more and more RAM with each passing experiment"): growth where the
    // memory is what there is more of and a repeat is named ("each", "every", a step); not more and
    // more users or processes, nor "more and more memory as I scale it up" (no repeat).
    // So is memory that "keeps filling (up)" with a repeat named ("it just keeps filling up at the
    // beginning of each epoch").
    const bool more_and_more = [&] {
      const size_t p = lo.find("more and more ");
      const bool repeat = has(kWPer) || contains_word(lo, "step") || contains_word(lo, "steps") ||
                          contains_word(lo, "epoch") || contains_word(lo, "epochs") || contains_word_start(lo, "iteration");
      if (repeat && (contains("keeps filling") || contains("keep filling"))) return true;
      if (p == std::string_view::npos || !repeat) return false;
      const std::string_view what = lo.substr(p + 14, 16);
      return contains_any(what, {"memory", "ram", "vram", "gpu memory", "host memory", "space", "swap"});
    }();
    // "Goes up" as a growth word, read with the step or going-on words below ("the memory still goes up",
    // "keeps going up", "went up every epoch"). Not a peak ("goes up to 22 GB"), nor on a line where a setting
    // is raised ("as I keep going up in image resolution, the memory goes up": the input's size), nor
    // another measure going up in its clause ("The loss keeps going up", "the number of workers keeps
    // going up").
    const bool goes_up = lo.find(" up") != std::string_view::npos && [&] {
      if (contains_any(lo, {"going up in ", "go up in ", "goes up in ", "went up in "})) return false;
      for (std::string_view g : kGoUp) {
        for (size_t p = lo.find(g); p != std::string_view::npos; p = lo.find(g, p + g.size())) {
          const std::string_view after = lo.substr(p + g.size(), 5);
          if (after.rfind(" to ", 0) == 0 && after.size() == 5 && is_digit(after[4])) continue;
          // (A rise and its fall within a step, "goes up at the start of every step and comes back down":
          // a phase's peak.)
          if (contains_any(lo.substr(p), {"back down", "comes down", "goes down", "drops back", "falls back"})) continue;
          // (One rise by a size at a load, "Memory went up by 14GB when I loaded the model".)
          const std::string_view clause = clause_at(lo, p);
          if (lo.compare(p + g.size(), 4, " by ") == 0 && contains_any(clause, {"load", "when i ", "while "})) continue;
          // The subject: the memory named just before ("the GPU memory goes up", "and memory goes up"), or
          // else another measure in the clause ("the loss keeps going up", "the max sequence length goes
          // up every epoch", "the reward goes up").
          const std::string_view near = lo.substr(p >= 24 ? p - 24 : 0, p >= 24 ? 24 : p);
          if (contains_any(near, {"memory", "vram", " ram", "usage", "allocated", "reserved", "footprint"})) return true;
          const std::string_view subject =
              clause.empty() ? lo.substr(0, p) : clause.substr(0, static_cast<size_t>(lo.data() + p - clause.data()));
          // (The memory of something, "the memory of each dataloader worker goes up every iteration": the
          // memory is the subject, the worker whose it is.)
          if (memory_of_is_subject(subject)) return true;
          if (contains_any(subject, {"loss", "accuracy", "learning rate", "temperature", "number of", "worker", "speed",
                                     "step time", "latency", "length", "batch size", "norm", "gradient", "perplexity",
                                     "reward", "score", "throughput", "lr "})) {
            continue;
          }
          return true;
        }
      }
      return false;
    }();
    if (has(kWGrow) || has(kWLeak) || piles_up || more_and_more || goes_up) {
    // A memory noun: "memory", "allocated", "vram", "ram", "rss", "usage".
    const bool mem_noun = has(kWMem) || has(kWRam) || contains("usage");
    // Growth without a step word but said to go on: "keeps increasing until", "growing slowly"; "kept"
    // only before the growth ("kept rising", not "I kept everything else the same").
    const bool ongoing = contains("keep") ||
                         contains_any(lo, {"kept increasing", "kept growing", "kept rising", "kept climbing", "kept going up",
                                           "kept accumulating", "kept on increasing", "kept on growing", "kept on rising"}) ||
                         contains("gradually") || contains("slowly") || contains("steadily") ||
                         contains("until") || contains("over time") || contains("constantly") || contains("continuously") ||
                         contains("continually") || contains("continued growth") || contains("continuous growth") ||
                         contains("still growth") || piles_up ||
                         // growth told going on past a fix tried ("I add torch.cuda.empty_cache() and gc.collect() ...
                         // However, the memory still increases")
                         (contains_any(lo, {"still increases", "still increasing", "still grows", "still growing",
                                            "still rises", "still rising", "still goes up", "still going up",
                                            "still climbs", "still climbing"}) &&
                          !contains_any(lo, {" with ", "linearly", "quadratic", "as expected"})) ||
                         // growth with the count of repeats: "as the number of inference increases, the
                         // allocated memory also increases"; a constant rise ("a constant incremental of
                         // the use of its memory", "constant increase")
                         repeats_counted(lo) ||
                         contains("constant increment") || contains("constant increase") || contains("incrementally") ||
                         contains("constant growth") || contains("constant rise");
    // Not a change the user made that worked ("Increasing the swap from 1GB to 4GB did the trick",
    // "I increased the limit and it runs fine"): the stated account reads it.
    const bool fix_told = has(kWGrow) && !has(kWLeak) &&
                          (contains("increasing the") || contains("increased the") || contains("increase the") ||
                           contains("increasing my") || contains("increased my")) &&
                          success_told(lo) && !ongoing && !contains("then") && !contains("every");
    // Growth denied or over ("no growth", "without any growth", "the growth stopped", flat since).
    const bool growth_denied = (contains("growth") &&
                                (contains("no growth") || contains("without growth") || contains("without any growth") ||
                                 contains("growth stopped") || contains("growth stops") || contains("flat") ||
                                 contains("no memory growth") || contains("not growth"))) ||
                               // "Memory does not keep increasing between steps", "it doesn't grow"
                               contains("not keep increasing") || contains("n't keep increasing") ||
                               contains("not keep growing") || contains("n't keep growing") || contains("not increas") ||
                               contains("n't increas") || contains("not grow") || contains("n't grow") ||
                               // "there is no creep at all"
                               contains("no creep") ||
                               // a leak denied ("there is no memory leakage", "I do not think it is a memory leak")
                               contains("no memory leak") || contains("no leak") || contains("not a memory leak") ||
                               contains("not a leak") || contains("isn't a leak") || contains("isn't a memory leak") ||
                               contains("think it is a memory leak") || contains("think it's a memory leak") ||
                               contains("without leak") ||
                               // Windows' virtual memory raised ("I increased my virtual memory to 64GB"): a
                               // setting, not the memory growing
                               ((has_text("virtual") || has_text("pag")) && windows_paging_file(lo)) ||
                               // an increase asked about as the size expected ("Since our dataset is 8.5 GB,
                               // shouldn't be the memory increase approx. 9 GB?"): the one increase a load
                               // should make, not the memory growing step after step
                               (contains("should") && increase_asked_as_expected(lo)) ||
                               // the memory told shrinking ("memory per GPU decreases")
                               contains("memory decreas") || contains("memory per gpu decreas") ||
                               contains("memory usage decreas") || contains("memory goes down") || contains("memory drops") ||
                               // a rise and a fall within one run ("the GPU memory increases first and then
                               // decreases"): a phase's peak, not growth from step to step (unless another
                               // clause of the line tells growth of its own)
                               rise_then_fall_only(lo);
    // Every growth word on the line has an object that is not memory: the user raised a count or a
    // setting ("addressed this by increasing the number of nodes", "increased the batch size"), the
    // memory did not grow.
    const bool grows_something_else = has(kWGrow) && !piles_up && growth_words_have_other_objects(lo);
    // The memory told to grow as the input grows ("When the length of the input increases, the GPU
    // memory consumption grows rapidly"): activations scale with T (the attention scores with T^2),
    // one input larger than the last, not memory kept from step to step.
    const bool grows_with_input = sentence && !negated && has(kWGrow) && !has(kWLeak) && mem_noun && growth_follows_input(lo);
    if (grows_with_input) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.45,
          "memory told to grow as the input grows (activations scale with its length or size): " + text());
    }
    // Memory told to fluctuate ("it quickly grows to around 8G and fluctuates for a while until finally
    // OOM"): it rises and falls with each input's size (a leak only rises), the largest input failing.
    // (The memory's fluctuation: not the loss's or another measure's in its clause; not denied, "doesn't fluctuate", "no
    // fluctuation"; not beside a rise told per step or epoch, "fluctuates a little but keeps increasing
    // after every epoch", which is a leak.)
    const size_t fl = lo.find("fluctuat");
    const std::string_view fl_clause = fl == std::string_view::npos ? std::string_view() : clause_at(lo, fl);
    const std::string_view fl_before = fl == std::string_view::npos ? std::string_view() : lo.substr(fl >= 14 ? fl - 14 : 0, fl >= 14 ? 14 : fl);
    const bool fluctuates = sentence && !negated && mem_noun && !has(kWLeak) && fl != std::string_view::npos &&
                            !contains_any(fl_clause, {"loss", "accuracy", "speed", "throughput", "utilization", "utilisation",
                                                      "score", "metric", "temperature", "clock", "power"}) &&
                            !contains_any(fl_before, {"n't ", "not ", "no ", "without ", "never "}) &&
                            !contains_any(lo, {"every", "each epoch", "each step", "each iteration", "per epoch", "per step",
                                               "keeps increasing", "keeps growing", "keep increasing", "keep growing"}) &&
                            !only_asked(lo, {"fluctuat"});
    if (fluctuates && !grows_with_input) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.45,
          "memory told to fluctuate (it follows each input's size; a leak only rises): " + text());
    }
    // Growth only asked about as what a setting would do ("Will it increase the memory required to load
    // the engine?", "does it grow with the batch?"): every growth word in such a question, none told
    // outside one. Not growth seen and asked about ("Why does the GPU memory keep increasing after every
    // epoch?", "memory increases every iteration, is this a leak?").
    const bool growth_only_asked = has(kWGrow) && !piles_up && !more_and_more && growth_only_supposed(lo);
    // ("per batch", "per forward", "per call": a repeat the words() table's "each" / "every" / steps do not hold)
    const bool per_repeat = memory_per_repeat(lo);
    if ((((has(kWGrow) || piles_up || more_and_more || goes_up) && (has(kWPer) || has(kWStep) || ongoing || per_repeat) &&
          mem_noun &&
          !grows_something_else && !growth_only_asked) ||
        (has(kWLeak) && mem_noun && !only_asked(lo, {"leak"}) && !leak_guessed(lo))) &&  // "Does demo.py have a memory leak?": asked
        !fix_told && !growth_denied && !grows_with_input && !fluctuates) {
      if (graph_of_no_grad_work) {
        add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.5,
            "memory grows with the autograd graph of work that needs no gradient (torch.no_grad told as the fix): " + text());
      } else if (graph_kept_outside_training(lo)) {
        add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.5,
            "memory grows in sampling / inference with a graph kept (a detach told missing), where nothing trains: " + text(),
            'i');
      } else if (no_training_phase_told(lo, false) && !ev_.no_autograd_line) {
        // Growth told in sampling, inference or evaluation, nothing training on the line: each
        // call's graph or outputs kept (context_at() reads the growth as evaluation's where no
        // no_grad / inference_mode shows).
        add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, has(kWGrow) || piles_up || more_and_more ? 0.5 : 0.3,
            "memory grows step after step: " + text());
        add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0, "growth told in inference / sampling", 'i');
      } else {
        add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, has(kWGrow) || piles_up || more_and_more ? 0.5 : 0.3,
            "memory grows step after step: " + text());
      }
    } else if (has(kWLeak) && !contains_any(lo, {"no memory leak", "no leak", "not a memory leak", "not a leak",
                                                 "isn't a leak", "isn't a memory leak", "without leak"})) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.1, "the word 'leak': " + text());
    }
    }
    // Memory told to grow with the tokens, sequences or requests held ("as the number of tokens
    // generated increases, memory increases", "... concurrent requests increases ... the server
    // crashes"): the KV cache, which holds every token of every sequence being generated.
    if (has(kWGrow) && (contains("as the number of") || contains("with the number of") || contains("the more ")) &&
        (contains("token") || contains("request") || contains("sequences") || contains("turns") ||
         contains("conversation") || contains("generated")) &&
        (has(kWMem) || has(kWRam) || contains("vram")) && !code_line(lo) && !only_asked(lo, {"increas", "grow"})) {
      add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.35,
          "memory told to grow with the tokens / sequences held: the KV cache: " + text());
    }
    // Memory told never to be given back during the run: "I don't think anything is freed ever", "the
    // buffers are never released", "nothing gets freed": a leak (every step's memory stays). Not of a
    // process that ended ("not freed after the process exits / is killed": another process, or a zombie),
    // nor the caching allocator's cache not returned to the driver or the OS ("not released to the OS").
    if ((contains("freed") || contains("released") || contains("deallocated") || contains("cleared")) &&
        (contains("never freed") || contains("freed ever") || contains("ever freed") || contains("nothing is freed") ||
         contains("never cleared") || contains("never gets cleared") || contains("never get cleared") ||
         contains("nothing gets freed") || contains("never get freed") || contains("never gets freed") ||
         contains("never being freed") || contains("never released") || contains("never deallocated") ||
         contains("never get released") || contains("never gets released")) &&
        !contains("process") && !contains("kill") && !contains("exit") && !contains(" os") && !contains("driver") &&
        !contains("cache") && !code_line(lo) && !only_asked(lo, {"freed", "released", "deallocated", "cleared"})) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.35, "memory told never to be freed during the run: " + text());
    }
    // A model told not freed after a run, or not reused and loaded again ("not de-allocating the model when
    // finished, it does not seem to reuse the already loaded depth-map model", "it reloads the model every
    // time and never frees the old one"): each run's copy stays, memory that grows run after run. Not
    // asked ('?'), nor a fix told ("now it frees the model").
    if (lo.find('?') == std::string_view::npos && contains("model") &&
        (contains_any(lo, {"not de-allocating the model", "not deallocating the model", "not freeing the model",
                           "not releasing the model", "not unloading the model", "never unloads the model",
                           "never frees the model", "never releases the model", "doesn't unload the model",
                           "does not unload the model", "doesn't free the model", "does not free the model",
                           "doesn't release the model", "does not release the model", "model is never freed",
                           "model is never unloaded", "model is never released", "model never gets freed",
                           "model never gets unloaded"}) ||
         (contains_any(lo, {"does not seem to reuse", "doesn't seem to reuse", "does not reuse", "doesn't reuse",
                            "never reuses"}) &&
          contains("loaded")) ||
         (contains_any(lo, {"reloads the model", "loads the model again", "reloading the model", "loading the model again"}) &&
          contains_any(lo, {"every time", "each time", "every run", "each run", "every call", "each call"}))) &&
        !contains("now it") && !contains_word(lo, "fixed")) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.4,
          "a model told not freed after a run or loaded again instead of reused: each run's copy stays: " + text(), 0,
          Told::kAccount);
    }
    // Weaker outside training (训练): growth while serving or predicting is as often a chat's history
    // or a KV cache (generation), or graphs kept by inference, as a leak.
    if (zh_memory_grows && !has(kWGrow)) {
      // 训练 (training) or 迭代 (iterations) on the line: a training run's growth.
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps,
          has_text("\xe8\xae\xad\xe7\xbb\x83") || has_text("\xe8\xbf\xad\xe4\xbb\xa3") ? 0.5 : 0.2,
          "memory grows step after step: " + text());
    } else if (zh_kept_on_device) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.4, "tensors told kept on the GPU: " + text(), kept_mark());
    } else if (zh_memory_leaks && !has(kWLeak)) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.3, "memory grows step after step: " + text());  // "memory leak"'s weight
    }
    // Memory told full only after a few of the items a loop works through one by one ("Detecting 100+
    // images in loop and end up with RAM full error after few images"): each item leaves something
    // behind that the next does not free (one item too large fails on that item, not after a few).
    if (has(kWAfter) && !has(kWGrow) && sentence && !negated && items_loop_fill_told(lo)) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.3,
          "memory full only after a few items of a loop (what each leaves behind adds up): " + text());
    }
    // A job's memory limit told exceeded ("I requested 40G memory and many of them exceeded this memory
    // limit", "the pod exceeded its memory limit"): a scheduler's or container's limit is a cgroup's on
    // the host's RAM (SLURM's --mem, Kubernetes' limits.memory), not a GPU's, where none is named.
    if (sentence && !negated && has_text("limit") && job_memory_limit_exceeded(lo)) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.4,
          "a job's memory limit told exceeded (a scheduler's or container's cgroup limit on host RAM): " + text(), 0,
          Told::kAccount);
    }
    // Memory allotted to a job told, a size with it ("I am allocating 32 GB of memory for the job", "we
    // request 64GB RAM for each job"): a scheduler grants a job the host's RAM (SLURM's --mem, a
    // cluster's memory request), not a GPU's, where none is named on the line (nor in the log:
    // context_at()).
    if (sentence && !negated && job_memory_allotted(lo)) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.35, std::string(kJobAllotted) + text(), 0, Told::kAccount);
    }
    // Swap told as set up beside the failure ("I set swap area as 16 GB, but the problem existed
    // still", "with 8GB of swap"): swap backs the host's RAM only, so the memory short is the host's
    // (no GPU named on the line).
    // (Not asked nor denied: "Should I increase the swap size?", "I don't use any swap space".)
    // (The clause holding "swap" not denied: "I don't have a swap file", "I didn't set up swap space".)
    auto swap_denied = [&] {
      const std::string_view c = clause_at(lo, lo.find("swap"));
      return contains_any(c, {"n't", "not ", "no swap", "without", "swapoff", "swap off", "disable"});
    };
    // (The swap's and the HPC job's readings below: a sentence, not denied nor asked, with no GPU named
    // on the line: of the host.)
    // (Read only on a line naming the swap or an HPC, which each reading below needs.)
    auto host_told = [&] {
      return sentence && !negated && lo.find('?') == std::string_view::npos && !gpu_memory_named(lo) && !gpu_named(lo);
    };
    if (has_text("swap") && host_told() && swap_configured(lo) && !swap_denied()) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.4, std::string(kSwapSetUp) + text(), 0, Told::kAccount);
    }
    // Memory told reaching what an HPC job requested or was granted, or its limit ("memory usage
    // increases ... to the maximum amount that I've requested from my HPC", "the HPC kills the job over
    // its memory limit"): a cluster job's memory is the host's RAM (SLURM's --mem), where the line
    // names no GPU (and the log no accelerator: context_at()).
    if (contains_word(lo, "hpc") && host_told() && (contains("memory") || contains_word(lo, "ram")) &&
        contains_any(lo, {"requested", "maximum", "limit", "exceed", "granted", "allotted", "killed", "kills", "ran out",
                          "runs out", "run out", "not enough"})) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.3, std::string(kHpcJobMemory) + text(), 0, Told::kAccount);
    }
    // Training with the repository's default settings on one GPU ("when I use a single TITAN X to train
    // the model with default settings, it just comes out with CUDA out of memory"): the defaults were
    // set for the authors' several GPUs or larger card, so each step's batch is too large for one
    // (fix: a smaller batch). In one sentence (default_settings_on_one_gpu()), not asked ('?'),
    // supposed ("if"), denied nor told to work.
    if (sentence && !negated && has_text("default") && contains_word_start(lo, "train") &&
        default_settings_on_one_gpu(lo)) {
      add(n, FactKind::kStatement, OomCause::kActivationsBatch, 0.3,
          "trained with the default settings on one GPU (a batch set for the authors' several GPUs or larger card): " + text());
    }
    // A cloud machine's type named beside the failure ("I couldn't find a way to specify `machineType` in
    // create_component_from_func", "it worked on a bigger machine"): a managed job's VM, whose size is the
    // host's RAM, where the log names no accelerator (context_at()).
    if (machine_type && lo.find('?') == std::string_view::npos &&
        !contains_any(lo, {"accelerator", "gpu", "nvidia", "tesla", "cuda", "tpu"})) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.35, std::string(kMachineType) + text(), 0, Told::kAccount);
    }
    // Memory told quadratic in the sequence's length ("the full attention matrix is
    // materialized for every head, so memory is quadratic in sequence length"): the (B, h, T, T) scores.
    if (sentence && !negated && lo.find('?') == std::string_view::npos && contains("quadratic") &&
        !contains_any(lo, {"instead of quadratic", "rather than quadratic", "from quadratic", "not quadratic",
                           "n't quadratic", "no longer quadratic", "subquadratic", "sub-quadratic"}) &&
        contains_any(lo, {"quadratic in sequence length", "quadratic in the sequence length", "quadratic in context length",
                          "quadratic in the context length", "quadratic in input length", "quadratic in the input length",
                          "quadratic in the number of tokens", "quadratic memory", "quadratically with the sequence",
                          "quadratically with sequence", "quadratically with the context", "quadratically with context",
                          "quadratically with the input", "quadratically with input"})) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.4,
          "memory told quadratic in the sequence's length (the attention scores, T^2): " + text());
    }
    // Fails after N epochs / hours of running fine. Not after a few iterations or steps ("only after 5
    // iterations, then ran out of memory": the first steps' own memory, not a long run's).
    if (has(kWAfter)) {
if ((contains("after ") || contains("ran fine") || contains("runs fine") || contains("worked fine")) &&
        (contains(" epochs") || contains(" hours") || contains(" iterations") || contains(" steps")) && !few_steps_told(lo) &&
        !has(kWGrow)) {
      // The input's size told changing at that point ("after 5000 iterations when the resolution became
      // 512 from 64": a progressive schedule): the failure follows the larger input, not the run's length.
      const bool input_changed = has(kWInputSize) && !negated &&
                                 contains_any(lo, {"became", "becomes", "switched to", "switches to", "changed to",
                                                   "changes to", "increased to", "increases to", "grew to", "grows to",
                                                   "jumped to", "jumps to"});
      if (input_changed) {
        add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35,
            "the input's size raised where it fails (a schedule's larger input, not the run's length): " + text(), 0,
            Told::kAccount);
      } else {
        add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.15, "fails only after a long run: " + text());
        add(n, FactKind::kStatement, OomCause::kFragmentation, 0.1, "fails only after a long run: " + text());
      }
    }
    // The memory told full after the program ran for minutes or hours ("After running for more than
    // ten minutes, the GPU memory is full"): it grew while it ran, a server's or a stream's state kept.
    // (After N epochs or iterations, the memory told full, not the run told failing there: 0.3.)
    if (sentence && !negated && (memory_full_told(lo) || contains("fills up") || contains("filled up"))) {
      const bool span = ran_for_a_time(lo);
      if (span || ran_for_steps(lo)) {
        add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, span ? 0.35 : 0.3,
            "the memory full after running for a time: " + text());
      }
    }
    }
    // Chinese: 几个小时后 / 十几分钟后 / 几天后 (after hours / minutes / days) with 显存 (the GPU's memory)
    // full (满) or blown (爆): "训练了几个小时后显存就满了".
    if (cjk && !negated && has_text("\xe5\x90\x8e") && has_text("\xe6\x98\xbe\xe5\xad\x98") &&
        (has_text("\xe5\xb0\x8f\xe6\x97\xb6\xe5\x90\x8e") || has_text("\xe5\x88\x86\xe9\x92\x9f\xe5\x90\x8e") ||
         has_text("\xe5\xa4\xa9\xe5\x90\x8e")) &&
        (has_text("\xe6\xbb\xa1") || has_text("\xe7\x88\x86"))) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.35, "the memory full after running for a time: " + text());
    }
    // Batch size 1 still fails: static memory.
    // Batch size 1 written as the run's setting on a line that tells no failure (read as a logged
    // setting), not a failure told at batch 1: each match is a command's flag (the token holding it
    // opens with '-': "--batch_size 1", "--per_device_train_batch_size=1") or code / a config, past
    // the identifier that holds it ("per_device_train_batch_size=1"): opening its line ("batch_size:
    // 1" in a YAML file, "  batch_size=1"), an argument ("(", ",", "{", a JSON key's quote before
    // it) or after another assignment on a command line ("GPUS=1 BATCH_SIZE=1 sh finetune.sh").
    // Prose ("solve it with the batch_size = 1.", "batch size of 1") stays the user's statement, and
    // so does a flag or code with a word of failure ("--per_device_train_batch_size 1 still gives OOM").
    auto written_as_setting = [&] {
      bool any = false;
      for (std::string_view k : kBatchOne) {
        for (size_t p = lo.find(k); p != std::string_view::npos; p = lo.find(k, p + 1)) {
          any = true;
          size_t f = p;  // the token's start
          while (f > 0 && lo[f - 1] != ' ' && lo[f - 1] != '\t' && lo[f - 1] != '(' && lo[f - 1] != '`') --f;
          if (lo[f] == '-') continue;  // a flag
          size_t t = p;
          while (t > 0 && (is_alpha(lo[t - 1]) || is_digit(lo[t - 1]) || lo[t - 1] == '_' || lo[t - 1] == '.')) --t;
          while (t > 0 && (lo[t - 1] == ' ' || lo[t - 1] == '\t' || lo[t - 1] == '"' || lo[t - 1] == '\'')) --t;
          if (t == 0 || lo[t - 1] == '(' || lo[t - 1] == ',' || lo[t - 1] == '{') continue;
          size_t b = t;
          while (b > 0 && lo[b - 1] != ' ' && lo[b - 1] != '\t') --b;
          const std::string_view prev = lo.substr(b, t - b);
          if (prev.find('=') == std::string_view::npos || prev.front() == '=' || prev.back() == '=') return false;
        }
      }
      return any && !said_of_failure();
    };
    // ("batchsize", one word, is no setting word of the settings reader; "even batchsize=1 can't run"
    // tells the batch all the same.)
    // (Also a batch setting's name of any spelling set to 1 in words or code, "batch=1",
    // "\"batch_size_per_gpu\" to 1": batch_one_named().)
    const bool batch_setting_one = line_has(lo, "batch") && batch_one_named(lo);
    // (zh: set to 1 with the failure going on, the batch named in Chinese or English: "批次设置为1但是依旧出现显存不足",
    // "train_batch_size我设置成1了，为啥还是out of memory"; read once for both below.)
    const bool zh_one_fails = cjk && zh_batch_one_fails(lo);
    const bool batch_named = has(kWSetting) || word_in("batchsize") || batch_setting_one || zh_one_fails;
    const bool batch_one = batch_named &&
                           ((std::any_of(std::begin(kBatchOne), std::end(kBatchOne), contains) && !written_as_setting() &&
                             !batch_one_untried(lo)) ||
                            // (that spelling only with a word of failure on the line: "batch: 1" alone is a config's)
                            (batch_setting_one && said_of_failure() && !batch_one_untried(lo)) ||
                            batch_one_by_pronoun(lo) || batch_lowered_to_one(lo) ||
                            zh_one_fails);
    if (batch_named) {
// "batch size 1.5" is not 1; "batch size 1." ends a sentence.
constexpr std::string_view kOneDot = "batch size 1.";
const size_t one_dot = batch_one ? lo.find(kOneDot) : std::string_view::npos;
// Batch size 1 told to work ("batch_size=1 worked for me", "with batch size 1 it runs fine"): the
// batch decides, static memory fits (the stated account reads the fix).
const bool one_worked = batch_one && batch_one_worked(lo);
if (batch_one && (one_dot == std::string_view::npos || one_dot + kOneDot.size() >= lo.size() ||
                  !is_digit(lo[one_dot + kOneDot.size()])) &&
    !negated && !one_worked) {
      bool digit_after = false;
      for (std::string_view k : kBatchOne) {
        const size_t p = lo.find(k);
        // ("batch size of 1,024": a thousands group goes on the number.)
        if (p != std::string_view::npos && p + k.size() < lo.size() &&
            (is_digit(lo[p + k.size()]) ||
             ((lo[p + k.size()] == ',' || lo[p + k.size()] == '.') && p + k.size() + 1 < lo.size() &&
              is_digit(lo[p + k.size() + 1])))) {
          digit_after = true;
        }
      }
      // Failing at batch 1 only late ("Even when batch size = 1, after 55000 iters training, OOM is
      // suddenly thrown out"): the model fit for thousands of steps, so static memory is less likely
      // what overflows than one sample larger than the rest (or memory kept across steps). Told in the
      // sentence that names batch 1: "after" just before a count (fillers aside: "after about 3000
      // steps") of 100 or more iterations / steps / batches ("55k" read as 55000), or of 2 or more
      // epochs; not where the failure is told early ("at the first step", "immediately").
      const bool late = [&] {
        for (std::string_view sen : sentences(lo)) {
          // (Batch size 1 itself, not "batch size 16".)
          const bool one = std::any_of(std::begin(kBatchOne), std::end(kBatchOne), [&](std::string_view k) {
            for (size_t p = sen.find(k); p != std::string_view::npos; p = sen.find(k, p + 1)) {
              const size_t e = p + k.size();
              if (e >= sen.size() || !(is_digit(sen[e]) || (sen[e] == ',' && e + 1 < sen.size() && is_digit(sen[e + 1])))) {
                return true;
              }
            }
            return false;
          });
          if (!one) continue;
          // (Or late in words: "I eventually get out of memory error even with a batch size of 1": the failure
          // within the 30 bytes after it, not the user's tries, "eventually set batch size 1", nor a failure
          // told early, "right away".)
          if (const size_t ev = sen.find("eventually"); ev != std::string_view::npos && is_word_at(sen, ev, 10) &&
              contains_any(sen.substr(ev + 10, 30), {"oom", "out of memory", "fail", "crash", "error", "run out", "runs out",
                                                     "ran out", "killed"}) &&
              !contains_any(sen, {"first step", "first iteration", "first batch", "immediately", "right away", "at the start",
                                  "at once"})) {
            return true;
          }
          for (const ProseCount& c : prose_counts(sen)) {
            // (Not where the count's clause tells the failure early: "at the first step", "immediately";
            // "the first epoch runs fine, but after 3 epochs it fails" is late.)
            if (contains_any(clause_at(sen, c.end - 1), {"first step", "first iteration", "first batch", "first forward",
                                                         "step 0", "immediately", "right away", "at the start",
                                                         "when loading", "before training"})) {
              continue;
            }
            double value = c.value;
            size_t end = c.end;
            if (end < sen.size() && sen[end] == 'k') {
              value *= 1000;
              ++end;
            }
            if (!count_told_after(sen, c)) continue;  // "after" as a word just before the number, fillers aside
            const std::string_view unit = trim_view(sen.substr(std::min(end, sen.size()), 24));
            const bool steps = unit.rfind("iter", 0) == 0 || unit.rfind("step", 0) == 0 || unit.rfind("batches", 0) == 0 ||
                               unit.rfind("training step", 0) == 0 || unit.rfind("training iter", 0) == 0;
            const bool epochs = unit.rfind("epoch", 0) == 0;
            if ((steps && value >= 100) || (epochs && value >= 2)) return true;
          }
        }
        return false;
      }();
      if (!digit_after && late) {
        add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.3,
            "fails at batch size 1 only late, after many steps (one larger sample, not the model): " + text(), 0,
            Told::kAccount);
        // (Still, a smaller batch will not help, and the model may sit near the device's size.)
        add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.15, "");
        add(n, FactKind::kStatement, OomCause::kActivationsBatch, -0.15, "");
      } else if (!digit_after) {
        add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.4, std::string(Signal::kFailsAtBatchOne) + ": " + text(), 0,
            Told::kAccount);
        // At batch 1 one sample's activations are the other term that can exceed the device: said
        // of a failure ("fails even with batch size 1"), not of a settings dump ("batch_size: 1").
        if (said_of_failure()) {
          add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.3,
              std::string(Signal::kFailsAtBatchOne) + " (one sample): " + text(), 0, Told::kAccount);
        }
        add(n, FactKind::kStatement, OomCause::kActivationsBatch, -0.15, "");
      }
    }
    }
    // A smaller or shorter input told not helping in words, with or without a setting's name
    // ("Choosing smaller pictures doesn't help either", "resizing to 256 made no difference"):
    // evidence against the input's size, as a length setting lowered in vain is below.
    const bool smaller_input_in_vain =
        ((contains("smaller") || contains("shorter") || contains("resiz") || contains("truncat") || contains("downs")) &&
         smaller_input_did_not_help(lo)) ||
        (cjk && zh_smaller_input_in_vain(lo));
    if (smaller_input_in_vain) add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, -0.25, "");
    // ("batchsize", one word, is no setting word of the log's settings reader: "batchsize=1 and 8" in a
    // sentence is no logged setting; here it names the batch lowered.)
    // (Also "the size of (the) batch": "tried to reduce the size of batch but no luck".)
    if ((has(kWSetting) || word_in("batchsize") || contains("size of batch") || contains("size of the batch")) &&
        (contains("reduc") || contains("lower") || contains("decreas") || contains("editing") || contains("smaller") ||
         contains("changed") ||
         // batch sizes tried ("I tried batch size 8, 4 and 2 and it still OOMs", "also tried various batch
         // size: 16, 8, 6. None of them succeeded")
         contains("tried batch") || contains("tried a batch") || contains("tried with batch") ||
         contains("various batch size") || contains("different batch size") || contains("several batch size") ||
         contains("multiple batch size")) &&
        (contains("didn't") || contains("did not") || contains("still") || contains("doesn't help") ||
         contains("not help") || contains("no solution") || contains("not solve") || fix_denied(lo) || contains("same error") ||
         contains("same problem") || contains("same issue") || contains("same oom") || contains("no effect") ||
         contains("any effect") || contains("no difference") || contains("persist") || contains("no luck") ||
         contains("without luck") || contains("no success") || contains("without success") || contains("to no avail") ||
         contains("none of them work") || contains("none of them succeed") || contains("none of them help") ||
         contains("none of them fit") || contains("none worked") || contains("none succeeded") || contains("none helped"))) {
      // The setting lowered is a length ("I reduced max_seq_len from 2048 to 512 and it still OOMs"):
      // evidence against the sequence length, not the batch; a batch word on the line keeps the batch.
      auto knob_named = [&](OomCause cause) {
        return std::any_of(std::begin(kSettingKnobs), std::end(kSettingKnobs),
                           [&](const SettingKnob& k) { return k.cause == cause && contains(k.text); });
      };
      const bool length_only = !contains("batch") && !contains("bs") && knob_named(OomCause::kActivationsSeqlen);
      if (length_only) {
        // (Once: the words above may have counted it.)
        if (!smaller_input_in_vain) {
          add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, -0.2, "a shorter input did not help: " + text());
        }
      } else {
        add(n, FactKind::kStatement, OomCause::kActivationsBatch, -0.2, "a smaller batch did not help: " + text());
        if (!ev_.batch_in_vain_line) ev_.batch_in_vain_line = n;
      }
    }
    // The same in Chinese: batch sizes tried or lowered in vain ("尝试了batch开4，16，32都会炸": tried
    // batch 4, 16 and 32, all blow up; "batch调小了还是oom": lowered, still OOM).
    if (cjk && contains("batch") && zh_batch_in_vain(lo)) {
      add(n, FactKind::kStatement, OomCause::kActivationsBatch, -0.2, "a smaller batch did not help: " + text());
      if (!ev_.batch_in_vain_line) ev_.batch_in_vain_line = n;
    }
    // The batch told failing however small it is ("keep getting CUDA out of memory no matter how small
    // batch size and max_seq_length are"): as at batch size 1, what is left is the model itself, and
    // a length named in the same clause was lowered in vain too.
    // (Not where memory is told growing on the line: "no matter how small the batch, the memory keeps
    // growing every step" is growth's.)
    // (In Chinese too: zh_batch_however(), "不管batchsize设置多少都会报错", however the batch is set, it fails.)
    if (contains("batch") && sentence && !negated && !has(kWGrow)) {
      for (std::string_view however : {"no matter how small", "no matter how low", "however small", "regardless of how small",
                                       "\xe4\xb8\x8d\xe7\xae\xa1", "\xe6\x97\xa0\xe8\xae\xba"}) {
        const size_t p = lo.find(however);
        if (p == std::string_view::npos || (!is_alpha(however[0]) && !zh_batch_however(lo))) continue;
        const std::string_view c = is_alpha(however[0]) ? clause_at(lo, p) : lo.substr(p);
        if (c.find("batch") == std::string_view::npos) continue;
        add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.3,
            "fails however small the batch (as at batch size 1: the model itself): " + text(), 0, Told::kAccount);
        add(n, FactKind::kStatement, OomCause::kActivationsBatch, -0.2, "");
        if (contains_any(c, {"seq_len", "max_len", "seq_length", "sequence length", "max_length", "max length"})) {
          add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, -0.2, "");
        }
        if (!ev_.batch_in_vain_line) ev_.batch_in_vain_line = n;
        break;
      }
    }
    // Before the first step / while loading the model (not a line about the load's target device,
    // map_location: where the checkpoint lands, not the model's size).
    if ((has(kWLoadProse) || has(kWTraining)) && !cpu_load_fix && !line_has(lo, "map_location")) {
      // "Before training", not with a verb of the training's course after it ("before training finishes /
      // ends / is complete / has finished / can finish / reaches the last epoch / was completed / stops":
      // during training); "finishes its setup" is before the first step all the same.
      const bool before_training = [&] {
        const size_t bt = lo.find("before training");
        if (bt == std::string_view::npos) return false;
        if (contains_any(lo.substr(bt + 15, 20), {"finishes its", "finish its"})) return true;
        const std::string_view after = lo.substr(bt + 15, 12);
        for (std::string_view course : {" finish", " end", " complet", " is ", " has ", " can ", " reach", " was ", " stop",
                                        " could ", " would "}) {
          if (after.rfind(course, 0) == 0) return false;
        }
        return true;
      }();
      if ((contains("before the first step") || before_training || contains("while loading") ||
         contains("when loading the model") || contains("loading the model") || contains("load the model") ||
         contains("model loading failed") || contains("error loading model") || contains("failed to load model") ||
         contains("model.to(") || contains("model.cuda()") || contains("before the first iteration") ||
         // the load itself said to take the memory: "the model loading will eat all the memory"
         (contains("model loading") && (contains(" eat") || contains(" takes up") || contains(" take up") ||
                                        contains(" takes all") || contains(" take all") || contains(" consume") ||
                                        contains(" use up") || contains(" uses up") || contains(" fill")))) &&
        !contains("after loading") &&  // "after loading the model, it costs 34G": loading finished
        // "while loading the dataset": the data's load (below), where the line names no model's load
        // ("It OOMs when loading the model, not when loading the dataset" stays the model's)
        (data_load_told(lo) == std::string_view::npos ||
         contains_any(lo, {"loading the model", "load the model", "loading model", "model loading", "model.to(",
                           "model.cuda()"})) &&
        !load_only_asked(lo) &&        // "is there a way to give max_memory when loading the model ?"
        // an option given or left out at the load ("I didn't set flashattention2 when loading the model"),
        // not the failure's phase
        !(contains("when loading the model") && contains_any(lo, {" set ", "didn't set", "did not set", " pass ", " passed ",
                                                                  " enable", " enabled "}))) {
      // The model loaded with its optimizer's state ("we load the model and optimizer state dicts (in
      // the load_state method) on the CPU. Otherwise, those might be tensors that are on GPU 0"):
      // a training checkpoint resumed, where Adam's two moments per parameter (Kingma & Ba 2015)
      // are what the load adds beside the model already placed, not the model's size.
      if (contains("optimizer state") || contains("optimizer's state") || contains("optimizer states") ||
          (contains("optimizer") && contains("state dict"))) {
        add(n, FactKind::kStatement, OomCause::kOptimizerState, 0.3,
            "the optimizer's state loaded with the model (a training checkpoint resumed): " + text());
      } else {
        add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.3, "fails while loading / placing the model: " + text());
      }
    }
    }
    // The failure told while the dataset loads ("I was getting an Out Of Memory error while loading the
    // dataset when I had 50GB of memory available"): a dataset read into the host's RAM before any
    // step (data_load_failure_told(): the sentence that tells it, not asked, denied, nor a GPU's load;
    // "How much memory does loading the dataset take for you?" after it tells nothing).
    if (sentence && data_load_failure_told(lo) && !gpu_memory_named(lo)) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.35,
          "fails while the dataset loads (a dataset read into the host's RAM): " + text(), 0, Told::kAccount);
    }
    // The same in Chinese: 加载模型 / 载入模型 / 模型加载 (loading the model) with the GPU's memory told
    // run out on the line (显存 with 爆 / 吃光 / 耗完 / 用完 / 不足 / 不够 / 占满), not asked (zh_not_told_at).
    if (cjk_ideographs(lo)) {
      size_t load = std::string_view::npos;
      for (std::string_view w : {"\xe5\x8a\xa0\xe8\xbd\xbd\xe6\xa8\xa1\xe5\x9e\x8b", "\xe8\xbd\xbd\xe5\x85\xa5\xe6\xa8\xa1\xe5\x9e\x8b",
                                 "\xe6\xa8\xa1\xe5\x9e\x8b\xe5\x8a\xa0\xe8\xbd\xbd"}) {
        load = std::min(load, lo.find(w));
      }
      // Or the failure named in English after the load ("每一张卡都加载了一次模型导致加载模型期间出现oom错误":
      // each card loaded the model, so an OOM error during the model's load).
      const bool runs_out = (lo.find("\xe6\x98\xbe\xe5\xad\x98") != std::string_view::npos &&
                             (std::any_of(std::begin(kZhShortOf), std::end(kZhShortOf), has_text) ||
                              std::any_of(std::begin(kZhUsedUp), std::end(kZhUsedUp), has_text))) ||
                            (load != std::string_view::npos &&
                             // (not "加载模型后 / 之后 / 完成之后": after the load, in training)
                             lo.substr(load + 12, 12).find("\xe5\x90\x8e") == std::string_view::npos &&
                             (lo.find("oom", load) != std::string_view::npos ||
                              lo.find("out of memory", load) != std::string_view::npos));
      // (Not an option set at the load, 设置, nor the load told fine, 没问题 / 没有问题: "在加载模型时设置了
      // load_in_8bit，加载没问题".)
      const bool load_fine = has_text("\xe8\xae\xbe\xe7\xbd\xae") || has_text("\xe6\xb2\xa1\xe9\x97\xae\xe9\xa2\x98") ||
                             has_text("\xe6\xb2\xa1\xe6\x9c\x89\xe9\x97\xae\xe9\xa2\x98");
      if (load != std::string_view::npos && runs_out && !load_fine && !zh_not_told_at(lo, load)) {
        add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.3,
            "fails while loading the model (zh): " + text());
      }
    }
    if (model_beyond_one_device(lo)) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.3,
          "the whole model on one device, said to exceed its memory: " + text());
    }
    // The failure told at a different point from run to run ("sometimes the memory error happens
    // right when I start training and other times a couple minutes into training"): the step that
    // fails depends on the batch drawn, a batch of longer inputs from shuffled data, not memory fixed
    // from the start (no start-of-training reading below).
    const bool failure_point_varies = sentence &&
                                      ((contains("sometimes") &&
                                        (contains("other times") ||
                                         lo.find("sometimes", lo.find("sometimes") + 9) != std::string_view::npos)) ||
                                       (contains("in some runs") && contains("in others"))) &&
                                      (contains("start") || contains("minute") || contains("epoch") || contains("step") ||
                                       contains("iteration")) &&
                                      !negated;
    if (failure_point_varies) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.2,
          "the failure comes at a different point from run to run (the batch drawn decides: longer inputs in some "
          "batches): " + text());
    }
    // At the very start of training (the first step): static memory or the optimizer state
    // created at the first step, not a batch that grew.
    if ((contains("when start training") || contains("when i start training") || contains("when starting training") ||
         contains("at the start of training") || contains("at the first step") || contains("on the first step") ||
         contains("in the first step") || contains("first iteration") || contains("first training step")) &&
        !contains("before the first step") && !negated && !failure_point_varies &&
        // (the start of the next model's training with the earlier one still loaded: that one holds it)
        !earlier_model_still_held(lo)) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.25, "fails at the start of training: " + text());
      add(n, FactKind::kStatement, OomCause::kOptimizerState, 0.15, "fails at the start of training: " + text());
    }
    // Only when resuming from a checkpoint (from scratch it trains): the loaded checkpoint's
    // tensors (optimizer state, a full state dict) stay on the GPU next to the model's own.
    // Most often the optimizer's state (Adam's two moments, twice the weights) loaded onto the GPU
    // beside the fresh optimizer's, the first step then creating more: optimizer state first; the
    // checkpoint dict itself kept (other) next.
    // The checkpoint itself told holding the memory ("the checkpoint pickle was wasting over 1GB of
    // memory", "never unloaded", "kept in memory"): the loaded object kept, not the optimizer's.
    // (Not the resume told as what the user does after each failure: "then I have to resume the training
    // again and again": the run that fails is the one before it; "I need to resume ... but it runs out of
    // memory" fails at the resume.)
    if (contains("resum") && (contains("checkpoint") || contains("ckpt") || contains("resume training") ||
                              contains("resuming training") || contains("resume the training") ||
                              contains("resuming the training")) &&
        !contains("resume_from_checkpoint") && !negated &&
        !contains_any(lo, {"have to resume", "had to resume", "to manually resume"})) {
      // (context_at() reads it as the checkpoint's own where the log tells that kept: checkpoint_kept_line.)
      add(n, FactKind::kStatement, OomCause::kOptimizerState, 0.45, std::string(kResumeOptimizer) + text());
      add(n, FactKind::kStatement, OomCause::kOther, 0.4,
          "fails when resuming from a checkpoint (its tensors kept on the GPU: torch.load without map_location='cpu', "
          "the checkpoint dict not deleted): " + text());
    }
    // Text Generation Inference's launcher: a shard's process ended while it started ("Error:
    // ShardCannotStart", "Shard 0 failed to start"): a shard loads the weights before it reports
    // ready (the router's warmup runs after, and its OOM ends otherwise: WebserverFailed), so an OOM
    // there is the model's load (text-generation-launcher).
    if (contains("shardcannotstart") || (contains_word_start(lo, "shard") && contains("failed to start"))) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.2,
          "a Text Generation Inference shard failed to start (it loads the weights before serving): " + text(), 'l',
          Told::kPrinted);
    }
    if (has(kWShards) && contains("loading") && contains("checkpoint shards")) {  // HF's and vLLM's "Loading safetensors checkpoint shards"
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.2, "loading checkpoint shards: " + text(), 'l',
          Told::kPrinted);
    }
    // Inference only / test script.
    if (has(kWTraining) || has(kWEval)) {
if (contains("inference-only") || contains("inference only") || contains("no training") ||
        contains("only inference") || contains("at test time") || contains("during inference") ||
        contains("during evaluation") || contains("during validation") || contains("in validation") ||
        contains("when evaluating") || contains("during testing")) {
      if (!negated) add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.25, "inference / evaluation: " + text(), 'i');
    } else if ((contains("not even training") || contains("when not training") || contains("while not training") ||
                contains("i'm not training") || contains("i am not training") || contains("not doing any training") ||
                contains("without any training")) &&
               // the memory told held by the run ("shows 14.37 GiB allocated"), not an idle notebook's earlier
               // cells or a model still being loaded ("not even training yet; it fails at model.to('cuda')")
               (contains("allocated") || contains("memory") || contains("gib") || contains("gb")) &&
               !contains("idle") && !contains("earlier cell") && !contains(" yet") && !contains("load") &&
               !contains(".to(")) {
      // Training denied while memory is held: inference that keeps the graph ("I don't know why it shows
      // 14.37 GiB allocated when not even training").
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.3,
          "no training told, yet the memory is held: inference keeping its autograd graph: " + text(), 'i');
    } else if (has(kWEval) && eval_words_denied(lo)) {
      // "we never evaluate", "without evaluation", "no validation at all": evaluation said not to run.
    } else if (has(kWEval) && !negated && !eval_ident_.empty() &&
               !(has(kWNoGrad) && code_line(lo)) &&  // (not the decorator itself: "@torch.inference_mode()")
               (contains(" method") || contains(" function") || contains("()") || contains(" loop"))) {
      // "for the epochVal method", "in my validate() function": the user names where it fails.
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.35, "fails in an evaluation function: " + text(), 'i');
    } else if (has(kWEval) && !negated) {
      // The word itself, or the identifier that names evaluation ("--do_eval=True") when no plain word does.
      std::string word = first_of(lo, kWEval);
      if (word.empty()) word = std::string(eval_ident_);
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.08, "the word '" + word + "': " + text());
    }
    }
    // A batch as large as the whole dataset ("DataLoader(ds, batch_size=len(ds))", "batch_size = len(dataset)"):
    // every sample through the model at once, the batch's activations.
    if (has_text("len(") && has_text("batch_size") && whole_set_batch(lo) && !has_text("min(")) {
      add(n, FactKind::kStatement, OomCause::kActivationsBatch, 0.35,
          "a batch as large as the whole dataset (batch_size=len(...)): " + text());
    }
    // The items one call asks for (items_per_call_told()): that call's batch, a sentence's weight.
    if (items_per_call && sentence) {
      add(n, FactKind::kStatement, OomCause::kActivationsBatch, 0.2, "the number of items one call asks for, told: " + text());
    }
    // Inputs up to a length told to work and a longer one to fail: "I'm able to transcribe audio files
    // up to a couple hundred seconds long, but I'm getting the following error once the decoding
    // reaches a file which is 1025 seconds long": the input's length decides.
    if (sentence && !negated && contains("up to ") && contains(" but ") &&
        contains_any(lo, {"seconds", "minutes", "tokens", "frames", "pixels", " long", "length", "resolution"}) &&
        contains_any(lo, {"error", "fail", "oom", "out of memory", "crash"}) &&
        lo.find("up to ") < lo.find(" but ")) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35,
          "inputs up to a length told to work, a longer one to fail: " + text());
    }
    // LoRA adapters merged into the model ("xtuner convert merge ... OOM", "merge_and_unload() runs out of
    // memory", "merging the LoRA weights fails"): the merge loads the whole base model's weights (and
    // writes merged copies), the model's static memory, not a step's. Not a merge told as not the trouble.
    if (merge_line && !negated &&
        (contains_any(lo, {"merge_and_unload", "convert merge", "merge_lora", "lora merge", "merge_adapter"}) ||
         ((contains_any(lo, {"merge ", "merging "})) && contains_any(lo, {"lora", "adapter", "peft"}))) &&
        !contains_any(lo, {"after merging", "after the merge", "load the merged", "loading the merged", "loaded the merged",
                           "no merge", "without merg", "before merging"})) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.35,
          "adapters merged into the model (the merge loads the whole base model's weights): " + text());
    }
    // A point cloud's size told as the input ("I'm processing a point cloud with 40k points", "my point
    // clouds are quite large ~800k points", "too many points in the scene"): per-point features,
    // neighbour searches and a voxel grid over its extent grow with the points, the input's length (as
    // a sequence's tokens), not the batch. Not denied ("not too many points") nor asked.
    if (sentence && !negated && points_line &&
        ((contains_any(lo, {"point cloud", "pointcloud", "point-cloud"}) && points_counted(lo)) ||
         contains_any(lo, {"too many points", "large number of points", "huge number of points", "millions of points",
                           "hundreds of thousands of points"})) &&
        !contains_any(lo, {"not too many", "n't too many", "not many points", "only a few points"}) &&
        lo.find('?') == std::string_view::npos) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35,
          "the input's size told as a point cloud's points (they grow as a sequence's tokens): " + text());
    }
    // A diffusion model's VAE decoding the latents ("an OOM error is reported during the final VAE
    // decode", "add vae tiling to avoid OOM", "in the video decoder step OOM", "decoding the latents
    // runs out of memory"): one decode of the whole image or video, whose
    // activations grow with its resolution and frames (fixed by tiled decoding). Not VAE slicing
    // (one image of the batch decoded at a time: the batch's remedy).
    if (vae_line && !negated &&
        (((contains_word_start(lo, "vae") || contains("_vae")) && contains_any(lo, {"decod", "tiling", "tiled"})) ||
         vae_decode_words) &&
        !contains_any(lo, {"slicing", "at a time", "one frame per"})) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35,
          "the VAE decoding the whole image / video at once (its activations grow with the resolution): " + text());
    }
    // A finished stage's model told to be unloaded before the next stage's ("Destroy the text2image
    // pipeline before video2world starts", "unload the VAE before the upscaler runs"): two models
    // resident at once, static memory. Not one never unloaded across repeated runs (growth).
    if (kept_line && !negated && contains(" before ") &&
        !contains_any(lo, {"never", "each run", "every run", "each time", "every time"})) {
      for (std::string_view verb : {"destroy", "delete", "unload"}) {
        const size_t v = lo.find(verb);
        if (v == std::string_view::npos || !word_starts_at(lo, v)) continue;
        const size_t before = lo.find(" before ", v);
        const std::string_view between = before == std::string_view::npos ? std::string_view{} : lo.substr(v, before - v);
        if (before != std::string_view::npos && before - v <= 60 &&
            contains_any(between, {"pipeline", "model", "encoder", "decoder"})) {
          add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.35,
              "a finished stage's model told unloaded before the next (two models resident at once): " + text());
          break;
        }
      }
    }
    // Batch sizes above a bound told to fail ("OutOfMemoryError with all batch sizes higher than
    // 464", "anything above batch size 8 runs out of memory"): the batch decides. The bound is the
    // batch's own, its number right after the comparison ("batch size=1. Bigger than that" bounds
    // something else; "max batch size of 5 above which" is a limit the user finds wrong, not a
    // bound told); not a question.
    if (has(kWSetting) && sentence && !negated && lo.find('?') == std::string_view::npos && contains("batch size") &&
        contains_any(lo, {"outofmemory", "out of memory", " oom", "memory", "fit"})) {
      size_t bound_at = std::string_view::npos;
      for (size_t bp = lo.find("batch size"); bp != std::string_view::npos && bound_at == std::string_view::npos;
           bp = lo.find("batch size", bp + 1)) {
        size_t q = bp + 10;
        if (q < lo.size() && lo[q] == 's') ++q;
        // "batch sizes higher than 464" / "batch size above 8"
        for (std::string_view w : {" higher than ", " greater than ", " larger than ", " bigger than ", " above ",
                                   " beyond ", " over "}) {
          if (lo.substr(q, w.size()) == w && q + w.size() < lo.size() && is_digit(lo[q + w.size()])) bound_at = bp;
        }
        // "above batch size 8", "anything beyond batch size=16"
        for (std::string_view w : {"above ", "beyond "}) {
          if (bp >= w.size() && lo.substr(bp - w.size(), w.size()) == w && q + 1 < lo.size() &&
              (lo[q] == ' ' || lo[q] == '=') && is_digit(lo[q + 1])) {
            bound_at = bp;
          }
        }
      }
      // The failure told in the bound's own clause ("with batch size over 1000 without any memory
      // issues" is a success, whatever else the line fails at).
      const std::string_view clause = bound_at != std::string_view::npos ? clause_at(lo, bound_at) : std::string_view{};
      bool bound = bound_at != std::string_view::npos;
      // ... a failure of memory: "give a shape mismatch error" is not one; "don't fit in memory" is.
      bound = bound && contains_any(clause, {"outofmemory", "out of memory", " oom", "memory", "don't fit", "do not fit",
                                             "doesn't fit"}) &&
              !contains_any(clause, {"without", "no oom", "no error", "no out of memory", "never", "fine", "works"});
      if (bound) {
        add(n, FactKind::kStatement, OomCause::kActivationsBatch, 0.35,
            "batch sizes above a bound told to fail: " + text());
      }
    }
    // The work on the first GPU though another was chosen: tensors placed on the wrong device (a
    // device string without its index, a library's own default device), the first GPU holding more
    // than its share.
    if (lands_on_first_gpu && sentence) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.3,
          (gpu_chosen_line_ > 0
               ? fmt::format("another GPU chosen (line {}), the work told on the first one: tensors placed on the wrong device: ",
                             gpu_chosen_line_)
               : std::string("several GPUs asked for, the work told on the first one: tensors placed on the wrong device: ")) +
              text());
    }
    // A memory size written into the library, not scaled to the device ("hardcoded 32GB VMM pool
    // reservation fails on Jetson", "hardcoded mx.set_cache_limit(32GB) is not device-scaled"): a
    // pool, cache limit or reservation the user cannot size, a bug in it (other). Not a batch
    // hard-coded ("batch size hardcoded to 256": the batch).
    if (sentence && paging_file_set && !negated) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.3,
          "Windows' paging file told changed or capped (the commit limit host allocations count against): " + text(), 0,
          Told::kAccount);
    }
    if (sentence && hardcoded_memory) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.35,
          "a memory size hard-coded in the library (a pool, cache limit or reservation not scaled to the device): " + text(),
          0, Told::kAccount);
    }
    // A copy kept per recompile ("the parameters getting copied each time a recompile was
    // triggered", "a new compile for every shape"): the compilation cache grows, a leak across steps;
    // not one recompile ("triggered once") nor recompiles told capped without effect.
    if (sentence && !negated && contains("compil") && copy_per_recompile(lo)) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.4,
          "a copy or a program kept per recompile (the compilation cache grows with each new shape): " + text(), 0,
          Told::kAccount);
    }
    // A rollback to an older version told making the failure go away (rollback_fixed()): the newer
    // version's change, confirmed by the user's own test, above what the growth or the run suggests.
    if (sentence && rollback) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.55,
          "a rollback to an older version told making the failure go away: the newer version's change: " + text(), 0,
          Told::kAccount);
      // (Growth that a rollback alone ends is the library's, not references the user's code keeps.)
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, -0.2, "");
    }
    // A regression told (regression_told()): the library's change, a candidate.
    if (sentence && (contains("commit") || contains("release") || contains("version") || contains("updat") ||
                     contains("upgrad") || contains("latest") ||
                     std::any_of(std::begin(kUpToOneGate), std::end(kUpToOneGate), contains) ||
                     (!ascii_ && has_text("\xe7\x89\x88"))) &&  // 版 (version)
        regression_told(lo)) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.35,
          "a regression told: it worked before a new version, release or commit and fails after it: " + text(), 0,
          Told::kAccount);
    }
    // A run set up for several GPUs moved onto one (several_gpus_setup_on_one()): the batch the
    // setting split over them is now on one GPU.
    if (sentence && !negated && contains("gpus") && several_gpus_setup_on_one(lo)) {
      add(n, FactKind::kStatement, OomCause::kActivationsBatch, 0.25,
          "a setup for several GPUs run on one: the batch it split over them is now on one GPU: " + text());
    }
    // A placement or memory-cap setting told ignored (placement_setting_ignored()): a library's bug;
    // not where the work is told landing on the first GPU instead of the one chosen (read above).
    if (setting_ignored && sentence && !lands_on_first_gpu) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.4,
          "a setting that places the work or caps its memory told to have no effect (the library ignores it): " + text());
    }
    // A dataframe's memory told ("performs dataframe merge that consumes too much memory", "pandas
    // runs out of memory on the join"): pandas and polars hold their frames in host RAM. Not a code
    // line ("import pandas as pd") nor a version listing.
    if (dataframe_memory && sentence) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.35,
          "a dataframe's memory told (pandas / polars hold their frames in host RAM): " + text());
    }
    // Inference told in Chinese (zh_inference), weighed as the English words are ("during inference"
    // 0.25, the word alone 0.08). An LLM's inference is its generation (its KV cache, read elsewhere):
    // not read where an LLM or generation is named (生成, generate, too).
    if (zh_inference > 0 && sentence && !ev_.llm_line && !has(kWLlmName) && !has(kWLlmGen) && !has(kWGenWord) &&
        !has_text("\xe7\x94\x9f\xe6\x88\x90")) {
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, zh_inference == 2 ? 0.25 : 0.08,
          "inference / evaluation, in the user's words: " + text(), zh_inference == 2 ? 'i' : '\0');
    }
    if (has(kWEval)) {
if (contains("model.eval()") && !negated) {
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.0, "model.eval(): " + text(), 'e');
    }
    }
    // unsloth's FastLanguageModel.for_inference(model): the model put in inference mode for generate(),
    // which does not turn autograd off for a direct forward (model(ids).loss keeps its graph); not
    // where the log shows no_grad / inference_mode or calls generate() (context_at()).
    if (contains(".for_inference(")) {
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.3, std::string(kForInference) + text());
    }
    // A call's result detached in the user's code ("output = vae(tensor_o).sample.detach().cpu().numpy()"):
    // the forward ran with autograd on, and only its output was cut from the graph; read where no
    // no_grad / inference_mode shows and nothing trains (context_at()).
    if (contains(".detach()") && code_line(lo) && call_result_detached(lo)) {
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.3, std::string(kForwardDetached) + text());
    }
    // no_grad in the program (the evaluation's graphs are then not kept): not no_grad told as the
    // fix ("wrapping the validation loop in torch.no_grad() fixed it", the fix shown as code under
    // a sentence pointing at it), which is the user's account of the missing no_grad.
    // The resolution is read in the clauses that name no_grad ("it works fine with 20 images. I thought
    // that using torch.no_grad() freed the memory" tells its success elsewhere, and no_grad in use).
    auto no_grad_told_fix = [&] {
      if (code_line(lo) || !tells_resolution(lo)) return false;
      for (std::string_view clause : clauses(lo)) {
        if ((clause.find("no_grad") != std::string_view::npos || clause.find("inference_mode") != std::string_view::npos) &&
            tells_resolution(clause) && !denied_or_asked(clause)) {
          return true;
        }
      }
      return false;
    };
    if (has(kWNoGrad) && !((fix_pointer_line_ > 0 && n - fix_pointer_line_ <= kFixPointerLines) || no_grad_told_fix())) {
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.0, "no_grad: " + text(), 'n');
    }
    // The user names the missing no_grad: "there is not no_grad decorator around the inference
    // script", "evaluate without torch.no_grad()", "forgot inference_mode".
    if (has(kWNoGrad) && (contains("without") || contains("missing") || contains("forgot") || contains("not no_grad") ||
                          contains("no no_grad") || contains("lack") || contains("not using") || contains("not use"))) {
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.45, "no_grad missing, in the user's words: " + text());
    }
    // An evaluation method named with its call: "Trainer.evaluate()", "model.predict(...)", "validate()".
    if (has(kWEval) && !negated && (contains("evaluate(") || contains("predict(") || contains("validate(") ||
                                    contains("evaluation_loop(") || contains("prediction_step("))) {
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.3, "an evaluation call named: " + text(), 'i');
    }
    // A recurrent net cloned once per time step, as Torch7's char-rnn and its forks print it ("cloning
    // rnn", model_utils.clone_many_times(protos.rnn, opt.seq_length)): seq_length copies, so the
    // sequence length sizes what is allocated next.
    if (clones_per_step) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.25,
          "the recurrent net cloned once per time step (seq_length clones): " + text(), 0, Told::kPrinted);
    }
    // Lightning keeps every training_step output (with its tensors) for training_epoch_end.
    if (contains("training_epoch_end") || contains("train_epoch_end(self, outputs")) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.4,
          "training_epoch_end: every training_step's returned tensors are kept until the epoch ends: " + text());
    }
    // Flash attention told not used ("I didn't set flashattention2 (V100 not supported)", "without
    // flash attention", "flash-attn is not installed"): the eager attention materializes the (B, h,
    // T, T) scores, memory that grows with the square of the input's length (Dao et al.,
    // FlashAttention, 2022, sec. 1).
    if (sentence && (contains("flash") && (contains("flash attention") || contains("flashattention") ||
                                          contains("flash_attention") || contains("flash-attn") || contains("flash_attn"))) &&
        flash_attention_not_used(lo)) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.3,
          "flash attention not used: the eager attention holds the (B, h, T, T) scores: " + text());
    }
    // The failure told coming after many inputs processed one at a time ("I got the same OOM after
    // running 100 sequences", "it crashes after processing 500 images"): each one's memory kept (a
    // leak across the loop), not one input too large.
    if (sentence && !negated && contains("after ") && failed_after_items(lo)) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.3,
          "fails only after many inputs processed one at a time: " + text());
    }
    // Long inputs in words: "if the output is too long (~1000 characters)", "long samples", "过长" ("too long").
    // Not a smaller input told not helping (read above: it speaks against the input's size).
    // (A line negated elsewhere, "... over a longer lead time. ... the memory is not released after each step":
    // a clause that tells the long input and is neither negated nor asked still counts.)
    auto long_clause = [&] {
      const std::vector<std::string_view> cs = clauses(lo);
      return std::any_of(cs.begin(), cs.end(), [&](std::string_view c) {
        return !clause_negated(c) && c.find('?') == std::string_view::npos && long_inputs(c, has(kWInputSize), pairs_);
      });
    };
    if (!smaller_input_in_vain && (negated ? long_clause() : long_inputs(lo, has(kWInputSize), pairs_))) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35, "long inputs, in the user's words: " + text());
    }
    // The input's resolution told as what decides the fit: "need to use r101 resolution, instead of
    // r50 to fit into 32G", "with a lower resolution it fits", "reducing the resolution solved it".
    // Not a super-resolution model's name, a question, nor an option not taken ("unless I reduce
    // resolution below 512").
    // Also a lower resolution told running ("I revised the resolution from 512 to 256, and it could
    // run") and a threshold told failing ("all resolutions roughly above 768^3 fail").
    auto resolution_threshold_fails = [&](std::string_view c) {
      return contains_any(c, {"above", "higher than", "larger than", "greater than", "bigger than", "beyond"}) &&
             (contains_word_start(c, "fail") || contains_word(c, "oom") || c.find("out of memory") != std::string_view::npos ||
              contains_word(c, "crash") || contains_word(c, "crashes"));
    };
    // (Both read in the clause that names the resolution: "I checked the resolution of each picture. The
    // problem is only in training, ... without problems" tells no change of it.)
    auto resolution_clause_tells = [&] {
      for (std::string_view c : clauses(lo)) {
        if (contains_word_start(c, "resolution") && (success_told(c) || resolution_threshold_fails(c))) return true;
      }
      return false;
    };
    if (sentence && !negated && contains_word_start(lo, "resolution") && lo.find('?') == std::string_view::npos &&
        !contains_word(lo, "unless") && !contains_word(lo, "if") && !contains_word(lo, "super") &&
        (contains("to fit") || contains("fits") || contains("fixed") || contains("solved") || contains("worked") ||
         contains_word(lo, "works") || resolution_clause_tells())) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35,
          "the input's resolution told as what decides the fit: " + text(), 0, Told::kAccount);
    }
    // One image (one clip, one utterance) already fails: the batch is 1, so one input's size, or
    // the model's, decides.
    // Whole words ("2001 images", "done image" are none), with a word of failure on the line
    // ("works for one image" is the opposite), not "more than one image".
    // (Not in a clause that tells the one input working: "I can run instructpix2pix on exactly one image
    // and it works very well. On all subsequent images, it errors": the first passes, the later ones fail.
    // Whole words: "networks", "refiner", "without success" tell none.)
    auto one_input_works = [](std::string_view c) {
      for (std::string_view w : {"works", "worked", "working", "succeeds", "succeeded", "successfully"}) {
        if (contains_word(c, w)) return true;
      }
      return fine_told(c);  // "fine" as a word, not "fine-tuning"
    };
    auto phrase_word = [&](std::string_view ph) {
      for (size_t p = lo.find(ph); p != std::string_view::npos; p = lo.find(ph, p + 1)) {
        const bool starts = p == 0 || !word_char(lo[p - 1]);
        const size_t e = p + ph.size();
        const bool ends = e >= lo.size() || !is_alpha(lo[e]) || lo[e] == 's';  // "one image", "single images"
        if (starts && ends && !one_input_works(clause_at(lo, p))) return true;
      }
      return false;
    };
    if (!negated && has(kWInputSize) && said_of_failure() && !contains("than one") && !contains("than 1 ") &&
        (phrase_word("one image") || phrase_word("single image") || phrase_word("one picture") ||
         phrase_word("single picture") || phrase_word("one photo") || phrase_word("single photo") ||
         phrase_word("one video") || phrase_word("single video") || phrase_word("1 image") ||
         phrase_word("one utterance") || phrase_word("single utterance"))) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.25, "one input alone fails (its size decides): " + text());
      add(n, FactKind::kStatement, OomCause::kActivationsBatch, -0.1, "");
    }
    // A graphics or rendering context on the same GPU told competing for its memory ("the PyTorch CUDA
    // context and the EGL rendering context compete for limited GPU memory", a simulator's OpenGL /
    // Vulkan renderer beside the model): memory PyTorch's allocator neither holds nor sees (other),
    // fixed by rendering in another process or on another device.
    // (Or told on the same GPU as the model: "Isaac Sim renders on the same GPU as my PPO policy", "the
    // habitat-sim renderer (EGL) is also on GPU 0 and takes ~2GB".)
    if (!negated &&
        (contains("compete") || contains("competing") || contains("contend") || contains("same gpu") ||
         contains("also on gpu") || contains("also on the gpu")) &&
        (contains_word(lo, "egl") || contains("opengl") || contains("vulkan") || contains("render")) &&
        (contains("memory") || contains("vram") || contains("gpu"))) {
      // (Told as the failure's cause, "because ... compete", above the run's circumstances.)
      const bool as_cause = contains("because") || contains("due to") || contains("causes") || contains("caused") ||
                            contains("so my");
      add(n, FactKind::kStatement, OomCause::kOther, as_cause ? 0.5 : 0.4,
          "a rendering context told competing with the model for the GPU's memory: " + text(), 0, Told::kAccount);
    }
    // Idle worker processes told holding the GPU ("it will go Ray::IDLE mode and rest in GPUs, the occupied
    // GPU memory keeps increasing", "idle workers keep their CUDA memory"): processes other than the one
    // that failed hold the device, a worker pool's (Ray, multiprocessing), not this process's growth.
    // (The idle ones the workers or processes, "idle workers", "Ray::IDLE", not a GPU sitting idle; the memory
    // they hold the GPU's, not told fine.)
    if (!negated && contains("idle") &&
        contains_any(lo, {"idle worker", "idle process", "ray::idle", "idle mode", "idle state", "idle ray"}) &&
        contains_any(lo, {"gpu memory", "vram", "cuda memory", "in gpus", "on the gpu", "on gpus", "in gpu", "the gpus"}) &&
        !contains_any(lo, {"gpu memory is fine", "gpu memory is ok", "gpu is fine"}) && !contains_word(lo, "ram") &&
        contains_any(lo, {"rest in", "keep", "hold", "occup", "stay", "remain"})) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.5,
          "idle worker processes told holding the GPU's memory: " + text(), 0, Told::kAccount);
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, -0.1, "");  // (the growth told is the idle workers')
    }
    // A second model or run fails where one alone fits ("this will oom during the second model, even
    // though 1 model is just fine"): the first one's memory is still held (its objects referenced).
    // (Not two runs at the same time, other processes', nor two models meant to stay loaded together.)
    if (!negated &&
        contains_any(lo, {"second model", "the second run", "second time", "the next model", "second one"}) &&
        !contains_any(lo, {"same time", "concurrent", "in parallel", "simultaneous", "both", "need it", "on purpose",
                           "intentional", "deliberately"}) &&
        (contains_word(lo, "oom") || contains_any(lo, {"out of memory", "runs out", "run out", "crash"})) &&
        contains_any(lo, {"1 model", "one model", "single model", "first one", "first model", "alone", "just fine",
                          "individually"})) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.45,
          "a second model or run fails where one alone fits: the first one's memory still held: " + text(), 0,
          Told::kAccount);
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, -0.25, "");  // (one model alone fits)
    }
    // The model told on the CPU while the GPU's memory is still taken ("Even when my model is set to CPU, when I
    // define fmodel, it will still take my GPU memory"): a library or wrapper placing its tensors on the GPU by
    // default (a device argument it defaults to "cuda"), not the model's own memory. Not asked.
    // (In a sentence; the verbs as words; the clause that tells the GPU's memory taken not a question.)
    auto gpu_memory_told_taken = [&] {
      const std::vector<std::string_view> cs = clauses(lo);
      return std::any_of(cs.begin(), cs.end(), [](std::string_view c) {
        return c.find('?') == std::string_view::npos && contains_any(c, {"gpu memory", "vram", "cuda memory"});
      });
    };
    if (sentence && !negated &&
        contains_any(lo, {"model is set to cpu", "model set to cpu", "model is on the cpu", "model on the cpu",
                          "model is on cpu", "model on cpu", "model.to('cpu')", "model.to(\"cpu\")", "model.cpu()"}) &&
        contains_any(lo, {"gpu memory", "vram", "cuda memory"}) && contains_any(lo, {"still", "even when", "even though"}) &&
        (contains_word_start(lo, "take") || contains_word_start(lo, "consum") || contains_word(lo, "uses") ||
         contains_word(lo, "use") || contains_word_start(lo, "occup") || contains_word_start(lo, "allocat")) &&
        !contains_any(lo, {"offload", "graph", "leak", "grow"}) && gpu_memory_told_taken()) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.45,
          "the model told on the CPU, yet the GPU's memory is taken: a library's tensors placed on the GPU by default: " +
              text(),
          0, Told::kAccount);
    }
    // One GPU told unable to hold a model of billions of parameters ("a single GPU cannot load the 70B
    // model", zh "单卡无法加载70b模型"): the weights alone do not fit one device.
    if (single_gpu_cannot_hold_model(lo)) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.4,
          "one GPU told unable to hold a model of billions of parameters: " + text(), 0, Told::kAccount);
    }
    // The model told small in parameters ("your generator has about 1.8M parameters only", "a 20 million
    // parameter model"): under 500 million, its 32-bit weights, gradients and Adam state take at most
    // 8 GB (16 bytes per parameter, ZeRO sec. 3.1), so the weights are not what fills a GPU. Not asked,
    // supposed or denied.
    // (Not the parameters an adapter adds or trains: "LoRA adds only 4M parameters", "2M trainable parameters".)
    if (!negated && lo.find('?') == std::string_view::npos && !contains_word(lo, "if") &&
        !contains_any(lo, {"lora", "adapter", "trainable", "peft"})) {
      if (const double m = millions.value_or(500); m < 500) {
        add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, -0.25,
            fmt::format("the model told small, about {:.3g} million parameters: its weights are not what fills the GPU: {}",
                        m, text()));
      }
    }
    // The model made smaller and the failure told going on ("forcing me to reduce the batch size to 1
    // and the backbone to ResNet50. Despite these adjustments, the program still consumes ... 23 GB",
    // "even with a smaller backbone it still runs out of memory"): its weights are not what fills the
    // GPU. Not asked, supposed or denied.
    if (!negated && made_smaller) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, -0.2,
          "the model told made smaller and the failure goes on: its weights are not what fills the GPU: " + text());
    }
    // One model fits, another does not: the model's own size decides.
    // ("All other models are working fine" beside the one that fails; a runtime's own hint to load
    // "a less resource-intensive model", WebLLM's.)
    if (!negated && (contains("larger model") || contains("bigger model") ||
                     (contains("smaller model") && !made_smaller) ||
                     contains("standard model") || contains("default model") ||
                     contains("less resource-intensive model") ||
                     // (not a version's difference, nor beside the batch or the model's small size told)
                     (contains("other models") && (contains("work") || contains("fine") || contains(" run")) &&
                      !contains("version") && !contains("upgrad") && !contains("downgrad") && !contains("batch") &&
                      !contains("m params") && !contains("m parameters")) ||
                     (contains(" model it does") && (contains("not work") || contains("n't work"))))) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.3, "it depends on which model is loaded: " + text());
    }
    // The weights made fp32 where half precision was meant ("autocast of model to TE layers changes
    // dtype to float32", "new module has param_dtype=torch.float32", "the model is loaded in fp32"):
    // 4 bytes per parameter instead of 2, twice the static memory. The weights named (parameters,
    // model, module, layers, checkpoint); not an optimizer's fp32 copies (master weights, moments:
    // optimizer state), a computation upcast (logits, layer norm, the loss), fp32 as what was
    // avoided ("in bf16 instead of fp32"), a quantized model's compute dtype, nor a denial.
    const auto fp32_param_dtype = [&] {  // "param_dtype=torch.float32", not FSDP's reduce_dtype beside a bf16 param_dtype
      const size_t p = lo.find("param_dtype");
      if (p == std::string_view::npos) return false;
      const std::string_view value = lo.substr(p + 11, 24);
      const size_t end = value.find_first_of(",)");
      const std::string_view v = value.substr(0, end);
      return v.find("float32") != std::string_view::npos || v.find("fp32") != std::string_view::npos;
    };
    if (!negated && (contains("float32") || contains("fp32") || contains("full precision")) &&
        (fp32_param_dtype() || contains("changes dtype") || contains("changed dtype") || contains("changes the dtype") ||
         contains("casts the model") || contains("loaded in") || contains("loads in") || contains("weights in") ||
         (contains("load") && (contains("as float32") || contains("as fp32") || contains("in full precision")))) &&
        (contains("param") || contains("weight") || contains("model") || contains("module") || contains("layer") ||
         contains("checkpoint")) &&
        !contains("optimizer") && !contains("master") && !contains("moment") && !contains("logits") &&
        !contains("instead of") && !contains("rather than") && !contains("compute_dtype") && !contains("4bit") &&
        !contains("8bit") && !contains("4-bit") && !contains("8-bit")) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.3,
          "the weights held in fp32 where half precision was meant (4 bytes per parameter, not 2): " + text());
    }
    // A second model or module kept resident on the GPU beside the one that runs ("GFPGAN ... once
    // enabled, it would take up some of the VRAM", "the VAE stays in VRAM", "keep VRAM for individual
    // modules"): its weights are static memory the next step cannot use. Not another program's
    // memory (other_process): a browser, the desktop, the OS; nor tensors kept there (activations,
    // predictions, outputs, gradients, a cache: a leak or evaluation's).
    if (!negated && (contains("vram") || contains("gpu memory")) &&
        (contains("take up some") || contains("takes up some") || contains("stays in vram") || contains("stay in vram") ||
         contains("kept in vram") || contains("remains in vram") || contains("keep vram") || contains("stays loaded") ||
         contains("stay loaded") || contains("stays resident") || contains("kept resident")) &&
        !contains("process") && !contains("program") && !contains("application") && !contains(" app ") &&
        !contains("chrome") && !contains("browser") && !contains("desktop") && !contains("compositor") &&
        !contains("windows") && !contains("display") && !contains("xorg") && !contains("game") &&
        !contains("activation") && !contains("tensor") && !contains("prediction") && !contains("output") &&
        !contains("gradient") && !contains("cache")) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.3,
          "a model or module kept resident on the GPU beside the one that runs: " + text());
    }
    // Not "twice" as a ratio ("keeping it twice as fast", "twice the memory"), not asked or told as
    // one after the other.
    const bool twice_ratio = contains("twice as") || contains("twice the") || contains("twice more") ||
                             contains("twice faster") || contains("twice slower") || contains("twice bigger") ||
                             contains("twice larger");
    // (A shortage told, "there is not enough memory for both", is no denial; plenty, fine, or not
    // loading them together is.)
    const bool two_denied = (negated && !contains("not enough")) ||
                            contains_any(lo, {"plenty", "is enough memory", "'s enough memory", "fits fine", "that's fine",
                                              "don't load", "do not load", "doesn't load", "not load all", "never load",
                                              "at a time"});
    if (!two_denied && two_models && at_once && !twice_ratio && !contains("?") && !contains("one after") &&
        !contains("one at a time") && !contains("sequential") && !contains("optimizer") && !contains("process") &&
        !contains("rank") && !contains("worker")) {
      add(n, FactKind::kStatement, OomCause::kStaticModelTooLarge, 0.3,
          "two models' weights (or two copies of one) resident on the device at once: " + text());
    }
    // Generation.
    // "use_cache": False / use_cache=False turns the KV cache off (training, calibration): no
    // generation on such a line that names nothing else of it, unless a sentence tells it as the
    // fix ("The key solution was to set use_cache=False": the cache was on). transformers' own
    // warning under gradient checkpointing ("Setting `use_cache=False`") is a sign of training.
    const bool fix_words = contains("fix") || contains("solution") || contains("solved") || contains("worked") ||
                           contains("the trick") || contains("resolved");
    const bool cache_off = contains("use_cache") &&
                           ((use_cache_off(lo) && (!sentence || !fix_words)) || contains("gradient checkpointing") ||
                            contains("gradient_checkpointing")) &&
                           !contains(".generate(") && !contains("kv cache") && !contains("max_new_tokens") &&
                           !contains("past_key_values") && !contains("num_beams");
    // The KV cache's own allocation told failing or oversized ("Exception on allocation of the GPU
    // KV cache", "llama.cpp allocates the KV cache for the entire context", "sizes the KV cache to
    // fill gpu_memory_utilization"): the allocation within 40 characters of the cache's name, in a
    // sentence that neither denies nor asks.
    if (sentence && !negated && has_text("kv") && kv_cache_allocation_told(lo)) {
      add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.4,
          "the KV cache's own allocation, in the user's words: " + text());
    }
    if ((has(kWLlmGen) || has(kWGenWord)) && !cache_off) {
if (has(kWLlmGen) || contains(".generate(") || contains("kv cache")) {
      add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.3, "LLM generation: " + text());
    } else if (has(kWGenWord) && !negated) {
      add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.05, "the word 'generation': " + text());
    }
    }
    // A chat's context growing turn by turn (chat_context_grows()).
    if (sentence && !negated && chat_context_grows(lo)) {
      add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.4,
          "memory grows with the chat's turns (the history is the context of every reply): " + text());
    }
    // Keeping loss tensors instead of numbers: the canonical leak (losses.append(loss), a meter
    // updated with the tensor; .item() / .data[0] are the fix the user is comparing with, on a line
    // about the loss: not any scalar read, "bbox = [[i.min().item(), i.max().item() + 1] ...]").
    if (has(kWLoss)) {
if (has(kWLoss) && (((contains(".item()") || contains(".data[0]")) && has_text("loss")) || contains("append(loss") ||
                        contains("update(loss") || contains("+= loss"))) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.35, "loss tensors kept across steps (vs .item()): " + text(),
          kept_mark());
    }
    }
    // A loss summed into a running total without .item() / .detach(): "running_loss += loss",
    // "train_loss += output.loss" keeps every step's graph alive until the total is dropped.
    if (has_text("+=") && has_text("loss") &&
        !contains(".item()") && !contains(".detach()") && !contains("float(") && !contains(".data[0]") && !negated) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.35, "loss tensors kept across steps (vs .item()): " + text(),
          kept_mark());
    }
    // Device arrays or tensors told to persist from one iteration to the next ("causes persistent GPU
    // arrays across loop iterations"), references told held on to ("it's unclear what's holding onto
    // the python references"): memory kept across steps, a leak.
    if (kept_line && !negated && lo.find('?') == std::string_view::npos &&
        !contains_any(lo, {"not persistent", "n't persistent", "non-persistent", "never persist", "not held onto",
                           "n't held onto", "nothing is holding", "nothing holds"}) &&
        ((contains("persistent") && !contains("persistent worker") && !contains("persistent_worker") &&
          contains_any(lo, {"array", "tensor", "buffer", "memory"}) &&
          contains_any(lo, {"across", "between", "every", "each"}) &&
          contains_any(lo, {"iteration", "loop", "step", "epoch", "call"})) ||
         (contains_any(lo, {"holding onto", "holds onto", "hold onto", "held onto", "holding on to", "holds on to",
                            "held on to"}) &&
          contains_any(lo, {"reference", "array", "tensor", "buffer"})))) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.4,
          "arrays / references told kept from one iteration to the next: " + text(), kept_mark());
    }
    // A list of the run's tensors told growing on the GPU ("allows a large list to grow on gpu,
    // eventually causing OOM"): outputs or losses kept step after step.
    if (!negated && list_grows) {
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.4,
          "a list of the run's tensors told growing on the device: " + text(), kept_mark());
    }
    // CUDA contexts created in worker processes ("creating a ~520 MiB CUDA context in every worker",
    // "24 idle contexts holding 12.2 GiB on each GPU"): every DataLoader worker or subprocess that
    // touches CUDA holds a context of its own on the device, memory outside the training process.
    if (!negated && worker_contexts) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.5,
          "CUDA contexts in worker processes hold the device's memory outside the training process: " + text());
    }
    // llama.cpp's split of the model over devices (-ts / --tensor-split) told off from what was asked
    // ("tensor split drifts from requested -ts ratio and results in OOM"): one device gets more.
    if (split_told_off) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.5,
          "the model's split over the devices told off from the one asked: " + text());
    }
    // The user names the graph kept alive: "holding on to the graph for each batch", "the sum of
    // non-detached tensors", "stores the complete computation graph", "outputs still attached".
    if (has(kWGraph) && !negated) {
      // (Not TensorFlow's "Graph execution error" header, nor "keep" as the failure's repetition: "I keep
      // getting an out of memory/graph execution error".)
      // ("keep" / "kept" counted only where not followed by the failure's repetition.)
      auto keeps_something = [&] {
        for (std::string_view k : {"keep", "kept"}) {
          for (size_t p = lo.find(k); p != std::string_view::npos; p = lo.find(k, p + 4)) {
            const std::string_view after = lo.substr(p + 4, 16);
            const std::string_view rest = after.substr(!after.empty() && after.front() == 's' ? 1 : 0);
            if (!contains_any(rest.substr(0, 10), {" getting", " hitting", " running", " having"})) return true;
          }
        }
        return false;
      };
      const bool graph_kept = (contains("graph") && !contains("retain_graph") && !contains("graph execution") &&
                               (contains("hold") || keeps_something() ||
                                contains("store") || contains("retain") || contains("accumul"))) ||
                              contains("non-detached") || contains("not detached") || contains("without detach") ||
                              contains("still attached") || contains("never detached") || contains("undetached") ||
                              contains("not being detached");
      if (graph_kept && graph_of_no_grad_work) {
        add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.5,
            "the autograd graph kept by work that needs no gradient (torch.no_grad told as the fix): " + text());
      } else if (graph_kept) {
        add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.45,
            "the autograd graph kept across steps, in the user's words: " + text(), kept_mark());
      }
    }
    // volatile=True was inference mode before PyTorch 0.4; since 0.4 it is ignored and graphs are built.
    if (has(kWEval)) {
if (contains("volatile")) {
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0.35, "volatile (ignored since PyTorch 0.4): " + text());
    }
    }
    if (contains("localcudacluster(") && contains("rmm_pool_size")) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.35, std::string(kWorkersPool) + text(), 0, Told::kPrinted);
    }
    // DataParallel gathers outputs on its first device; PyTorch warns when the GPUs differ.
    if (has(kWSetting) || has(kWMulti)) {
if (contains("imbalance between your gpus")) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.5,
          "PyTorch warns of an imbalance between the GPUs: " + text(), 0, Told::kPrinted);
    } else if (contains("dataparallel(") && !contains("distributeddataparallel(")) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.2, "nn.DataParallel (gathers on GPU 0): " + text());
    }
    }
    // TensorFlow's device line at start-up: free far below total before anything ran.
    if (tf_device_line) {
if (contains("free memory:")) {
      const size_t p = lo.find("free memory:");
      const std::string num = squash(lo.substr(p + 12, 24));
      auto free_now = size_at(num, 0, false, true);
      if (free_now && !free_now->overflow) last_free_at_start_ = {n, free_now->bytes};
    }
    }
    if (tf_device_line) {
if (contains("total memory:")) {
      const size_t p = lo.find("total memory:");
      const std::string num = squash(lo.substr(p + 13, 24));
      auto total = size_at(num, 0, false, true);
      if (total && !total->overflow) last_total_at_start_ = {n, total->bytes};
    }
    }
    if (last_free_at_start_.first > 0 && last_total_at_start_.first > 0 &&
        std::abs(last_free_at_start_.first - last_total_at_start_.first) <= 3 &&
        last_free_at_start_.second * 4 < last_total_at_start_.second) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.5,
          fmt::format("at start-up only {} of {} was free: something else holds the GPU", format_bytes(last_free_at_start_.second),
                      format_bytes(last_total_at_start_.second)),
          0, Told::kPrinted);
      last_free_at_start_ = {0, 0};
    }
    // An input's resolution or a protein's length, as numbers (input_dims()).
    if (dims.weight > 0.0 && !negated) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, dims.weight,
          "a long input (sequence length / resolution): " + dims.what + ": " + text());
    }
    // One example input made at batch 1 whose image or volume is large ("dummy_input = torch.randn(1, 1,
    // 128, 128, 128, device='cuda')" before torch.onnx.export): the batch is already one, its size is
    // the input's resolution (example_input_size()).
    if (!example_size.empty() && !negated) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.3,
          "an example input at batch 1 whose size is its resolution (" + example_size + "): " + text());
    }
    // A system of many atoms ("I have 1216 atoms in a frame", "a million atom simulation", "50k-atom
    // box"): a machine-learned interatomic potential or molecular GNN (NequIP, Allegro, MACE) builds
    // per-atom features and per-edge messages over every neighbour pair within its cutoff, so its
    // activations grow with the atoms (and their neighbours): the input's size. 500 atoms or more;
    // not asked.
    auto atoms_clause = [&] {
      const std::vector<std::string_view> cs = clauses(lo);
      return std::any_of(cs.begin(), cs.end(), [&](std::string_view c) {
        return !clause_negated(c) && c.find('?') == std::string_view::npos && many_atoms(c);
      });
    };
    if (contains("atom") && atoms_clause()) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.3,
          "a system of many atoms: an interatomic potential's or molecular GNN's activations grow with the atoms and "
          "their neighbour pairs: " + text());
    }
    // A point cloud's voxel or grid size told with the failure ("my cuda gets OOM when I use grid size of 0.05
    // for Waymo"): the sampling keeps one point per voxel, so a finer grid keeps more points, the input's
    // size (Point Transformer V3's GridSample, OpenPCDet's VOXEL_SIZE). Not asked of alone, not negated.
    auto tells_oom = [](std::string_view t) {
      return contains_word_start(t, "oom") || t.find("out of memory") != std::string_view::npos;
    };
    if (voxel_line && !negated && tells_oom(lo)) {
      const std::vector<std::string_view> cs = clauses(lo);
      if (std::any_of(cs.begin(), cs.end(), [&](std::string_view c) {
            return c.find('?') == std::string_view::npos && tells_oom(c) &&
                   contains_any(c, {"voxel size", "voxel_size", "grid size", "grid_size", "voxel resolution"});
          })) {
        add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35,
            "a point cloud's voxel / grid size told with the failure: a finer grid keeps more points: " + text());
      }
    }
    // A long input named with its size: "a 3440 a.a. sequence", "sequence length 8192", "2048x2048 images".
    if (has(kWInputSize)) {
if (contains("sequence") || contains("resolution") || contains("length") || contains("tokens") ||
        contains("image size") || contains("super-resolution")) {
      for (size_t p = 0; p < lo.size(); ++p) {
        if (!is_digit(lo[p]) || (p > 0 && (is_digit(lo[p - 1]) || lo[p - 1] == '.'))) continue;
        // A number glued to the letters before it is a name's, not a length: a GPU's ("Quadro K2000",
        // "RTX3090", "A6000") or a model's ("gpt2"); not after "x" (the second side of "2048x2048").
        const bool in_name = p > 0 && is_alpha(lo[p - 1]) && lo[p - 1] != 'x';
        // Nor a number in a web address or an HTML image tag's attribute (a screenshot's `<img width="1375"
        // ... src="https://.../extending-the-context-length-...">`): the page's, not an input's.
        const size_t token_begin = lo.find_last_of(" \t(\"'<", p) == std::string_view::npos ? 0 : lo.find_last_of(" \t(\"'<", p);
        const bool in_markup = lo.substr(token_begin, p - token_begin).find("://") != std::string_view::npos ||
                               (contains("<img ") && ((p >= 7 && lo.compare(p - 7, 7, "width=\"") == 0) ||
                                                       (p >= 8 && lo.compare(p - 8, 8, "height=\"") == 0) ||
                                                       (p >= 6 && lo.compare(p - 6, 6, "width=") == 0) ||
                                                       (p >= 7 && lo.compare(p - 7, 7, "height=") == 0)));
        // The whole digit run, also when it is too long for integer_at() (more than 18 digits:
        // nullopt, `end` untouched): the scan resumes after it (resuming at 0 never ended).
        size_t end = p;
        while (end < lo.size() && is_digit(lo[end])) ++end;
        auto v = integer_at(lo, p);
        // A protein's residues drive structure models quadratically: "912 AA", "650 residues".
        const std::string_view unit = lo.substr(end, std::min<size_t>(10, lo.size() - end));
        const bool residues = unit.rfind(" aa", 0) == 0 || unit.rfind("aa ", 0) == 0 || unit.rfind(" residues", 0) == 0 ||
                              unit.rfind(" amino", 0) == 0;
        // Tokens counted as they are generated ("after 1000 tokens, the GPU runs out of memory", "OOM
        // after generating 3000 tokens"): the output's length at the failure, which the KV cache
        // grows with, token by token; not an input's length.
        // The count right after the words ("after truncating to 2048 tokens" is an input's).
        const std::string_view before = lo.substr(p >= 24 ? p - 24 : 0, p >= 24 ? 24 : p);
        auto ends_with = [&](std::string_view x) {
          return before.size() >= x.size() && before.substr(before.size() - x.size()) == x;
        };
        const bool counted = ends_with("after ") || ends_with("after about ") || ends_with("after around ") ||
                             ends_with("after ~") || ends_with("generating ") || ends_with("generated ") ||
                             ends_with("producing ");
        // Not a count of some other tokens ("after 2000 tokens per sequence", "after 4096 tokens in
        // the prompt", "after 50000 tokens of training data").
        const size_t word_end = lo.find_first_of(" ,.;:)", end + 1);
        // "of sampling / generation / decoding / output" is the generation's own.
        const std::string_view rest = word_end == std::string_view::npos ? std::string_view() : lo.substr(word_end, 16);
        const bool of_output = rest.rfind(" of sampl", 0) == 0 || rest.rfind(" of generat", 0) == 0 ||
                               rest.rfind(" of decod", 0) == 0 || rest.rfind(" of output", 0) == 0;
        const bool other_tokens = rest.rfind(" per", 0) == 0 || (rest.rfind(" of ", 0) == 0 && !of_output) ||
                                  rest.rfind(" in ", 0) == 0 || rest.rfind(" into", 0) == 0 || rest.rfind(" from", 0) == 0 ||
                                  rest.rfind(" for ", 0) == 0;
        // ... or the tokens told generated ("after 3000 generated tokens", "after 2000 new tokens").
        const bool told_generated = lo.compare(end, 17, " generated tokens") == 0 || lo.compare(end, 11, " new tokens") == 0 ||
                                    lo.compare(end, 14, " output tokens") == 0;
        if (v && *v >= 100 && *v <= 10000000 &&
            ((unit.rfind(" token", 0) == 0 && counted && !other_tokens) || (told_generated && ends_with("after ")))) {
          add(n, FactKind::kStatement, OomCause::kGenerationKvCache, 0.35,
              "memory ran out after that many generated tokens: the KV cache grows with each one: " + text());
          break;
        }
        // A rate, not a length: "1000 tokens/s", "1500 tokens per second", "900 tok/s".
        const bool rate = unit.rfind(" tokens/s", 0) == 0 || unit.rfind(" tok/s", 0) == 0 || unit.rfind("tok/s", 0) == 0 ||
                          (unit.rfind(" tokens pe", 0) == 0 && lo.compare(end + 7, 11, " per second") == 0);
        // (Nor a date's year: "Screenshot 2023-08-07", "2024/05/01", "on Aug 7, 2023", "in March 2024".)
        const bool year = end - p == 4 && (lo.compare(p, 2, "19") == 0 || lo.compare(p, 2, "20") == 0);
        const std::string_view month_before = lo.substr(p >= 16 ? p - 16 : 0, p >= 16 ? 16 : p);
        const bool date = year && ((end + 3 < lo.size() && (lo[end] == '-' || lo[end] == '/') && is_digit(lo[end + 1]) &&
                                    is_digit(lo[end + 2]) && lo[end + 3] == lo[end]) ||
                                   contains_any(month_before, {"jan", "feb", "mar", "apr", "may ", "jun", "jul", "aug", "sep",
                                                               "oct", "nov", "dec"}));
        // (Nor a GeForce card's number told alone: "runs out of memory on my 3090", "a 4090 Ti".)
        const bool card = end - p == 4 && v &&
                          std::string_view("1050 1060 1070 1080 2060 2070 2080 3050 3060 3070 3080 3090 4060 4070 4080 4090 "
                                           "5060 5070 5080 5090")
                                  .find(lo.substr(p, 4)) != std::string_view::npos &&
                          !(end < lo.size() && (lo[end] == 'x' || lo[end] == '*')) &&
                          lo.compare(end, 7, " tokens") != 0 && lo.compare(end, 3, " px") != 0;
        if (v && !rate && !in_name && !in_markup && !date && !card && (*v >= 1000 || (residues && *v >= 300)) && *v <= 10000000 &&
            !(end < lo.size() && (lo[end] == '.' || lo[end] == ':'))) {
          add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.3, "a long input (sequence length / resolution): " + text());
          break;
        }
        p = end;
      }
    }
    }
    // (Not a model saved to a deployment format, saved_to_format(): "saving the model to onnx format"
    // traces a forward pass.)
    if (has(kWSave) && (contains("save_pretrained") || contains("when saving") || contains("save the model") ||
                        contains("save model") || contains("save_checkpoint") || contains("saving the model") ||
                        contains("torch.save(")) && !saved_to_format(lo)) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.3, "fails while saving a checkpoint: " + text());
    }
    // A library kernel's workspace told too large: "the cuDNN implementation of convolutions is
    // trying to use too large workspace", "cuBLAS asks for a huge workspace". The request is the
    // algorithm's scratch memory, not the tensors (cudnnGetConvolutionForwardWorkspaceSize; PyTorch
    // picks the algorithm, torch.backends.cudnn.benchmark): another algorithm or kernel fits.
    if (sentence && !negated && contains("workspace") && lo.find('?') == std::string_view::npos &&
        (contains("cudnn") || contains("cublas") || contains("convolution") || contains("algorithm")) &&
        workspace_too_large(lo)) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.4, "a library kernel's workspace told too large (cuDNN / cuBLAS): " + text());
    } else if (sentence && !negated && algorithm_choice) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.35,
          "the convolution algorithm the library picks told (its scratch workspace, not the tensors): " + text());
    }
    // Several GPUs / ranks: a little weight only. Not a launch told as one process
    // ("torchrun --nproc_per_node=1", "world_size=1", "single GPU run, rank 0").
    auto one_after = [&](std::string_view key) {
      for (size_t p = lo.find(key); p != std::string_view::npos; p = lo.find(key, p + 1)) {
        size_t q = p + key.size();
        while (q < lo.size() && (lo[q] == ' ' || lo[q] == '=' || lo[q] == ':')) ++q;
        if (q < lo.size() && lo[q] == '1' && (q + 1 >= lo.size() || !is_digit(lo[q + 1]))) return true;
      }
      return false;
    };
    const bool one_process = one_after("nproc_per_node") || one_after("nproc-per-node") || one_after("world_size") ||
                             one_after("world size") || contains("single gpu") || contains("single-gpu");
    if ((has(kWMulti) || contains("[rank")) && !one_process) {
      if (!ev_.ranks_line) ev_.ranks_line = n;
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.08, "several ranks / GPUs: " + text());
    }
    if (has(kWLoadProse)) {
if ((contains("map_location") && contains("torch.load")) ) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, -0.1, "");
    }
    }
    // Another application holding the GPU ("another application was holding most of the VRAM", "a
    // game in another app uses half the GPU memory"): the app with the device named and a verb of
    // holding, not another app's version or "another application of this method", nor denied ("no
    // other app is using the GPU").
    auto other_app_holds = [&] {
      return contains("other app") && (contains("gpu") || contains("vram") || contains("memory")) &&
             (contains("using") || contains("uses") || contains("holding") || contains("holds") || contains("occup") ||
              contains("hogging") || contains("taking") || contains("eating")) &&
             !word_in("no") && !word_in("not") && !contains("n't");
    };
    // A notebook's kernel holding the device ("another Jupyter kernel still holds the GPU", "a Jupyter
    // notebook running in the background"), not a notebook merely named ("I reused the jupyter
    // notebook of the example", "the Jupyter kernel died", "I closed all Jupyter notebooks").
    auto jupyter_holds = [&] {
      return contains("jupyter") && !negated && !contains("closed") && !contains("nothing else") && !contains("no other") &&
             (contains("another notebook") || contains("other notebook") || contains("another kernel") ||
              contains("other kernel") || contains("background") || contains("hold") || contains("occup") ||
              contains("still running"));
    };
    // Windows' "shared GPU memory" (Task Manager's name for the host RAM a GPU may borrow; all an
    // integrated GPU has) is no GPU shared with others.
    auto shared_gpu_memory = [&] { return contains("shared gpu memory") || contains("shared gpu mem "); };
    // Other jobs / processes on the GPU.
    if (has(kWOther)) {
if (contains("other process") || contains("another process") || contains("other users") ||
        contains("other user's") || contains("other users'") || contains("other jobs") || contains("another job") ||
        contains("another program") || contains("stale kernel") || contains("zombie") || contains("another code") ||
        contains("another script") || contains("another experiment") || contains("another training") ||
        contains("another task") || contains("other program") || other_app_holds() ||
        // "other VRAM consumers not detected in available memory" (the desktop, a game, a browser;
        // not denied: "other VRAM consumers? there were none")
        ((contains("other vram consumer") || contains("other gpu consumer")) && !contains("none") &&
         !contains("no other")) ||
        contains("already in use") || (contains("shared gpu") && !shared_gpu_memory()) || jupyter_holds() ||
        // other people sharing the GPU, or hogging it ("I have to share GPUs with other people ... their
        // scripts decide to hog up all the GPU memory"); not "other people have the same problem", "I share
        // the same problem as other people", "ShareGPT", nor denied ("not shared with other people")
        (contains("other people") && !other_people_denied(lo) &&
         (contains("hog") || contains("occup") ||
          ((contains_word(lo, "share") || contains_word(lo, "shared") || contains_word(lo, "sharing")) &&
           !contains("share the same"))) &&
         (contains("gpu") || contains("memory")))) {
      // Not where the user rules them out ("nvidia-smi shows no other process", "no, only this one").
      if (!contains("no other process") && !contains("no other job") && !contains("no other program") &&
          !contains("only this one") && !contains("not another process") && !contains("no another process")) {
        add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.35, "other jobs on the GPU: " + text());
      }
    }
    }
    if (optimizer_memory && sentence) {
      add(n, FactKind::kStatement, OomCause::kOptimizerState, 0.4, "the optimizer's memory, in the user's words: " + text());
    }
    if (data_in_memory && sentence) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.4, "a whole dataset held in host memory: " + text(), 0, Told::kAccount);
    }
    if (sentence && !data_in_memory && has_text("cop") && data_copy_per_process(lo)) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.4,
          "each process holds its own copy of the data in host memory: " + text(), 0, Told::kAccount);
    }
    // A package's or extension's build named where the memory ran out, on the line that tells the memory or
    // the kill ("Memory leakage during `Building wheels for collected packages` for flash-attn", "cc1plus
    // killed"; not a build told done, "Building wheels ... done", nor an install step alone): its compiler
    // jobs run on the host, each taking its own RAM (ninja runs one per core), whatever the GPU; a
    // build's memory rising is its jobs starting, no leak. Not a model's compilation (torch.compile,
    // XLA, a JIT), nor a line naming the GPU's memory.
    if (!negated && build_jobs_named(lo) && !gpu_memory_named(lo) &&
        contains_any(lo, {"memory", "ram", "killed", "oom", "crash", "freez", "froze", "swap", "leak", "exhaust"}) &&
        !contains_any(lo, {"went fine", "successfully", "done", "finished", "worked", "no problem"})) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.45,
          "a package's build (its compiler jobs run on the host, one per core): " + text(), 0, Told::kAccount);
      add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, -0.25, "");
    }
    // GPU memory that a stopped, killed or crashed process left behind, or processes piling up on
    // the GPUs, told as such: "the GPU memory is not released if I forcibly stop the training
    // process (Ctrl-C)", "the memory is orphaned on the GPU when pycaffe exits unexpectedly",
    // "there are more and more processes running in my GPUs". The memory is held by processes
    // other than the one that failed (or by the driver for a dead one), as nvidia-smi shows.
    // Held: "not released", "isn't freed", "still holds", "stays occupied", "remains allocated";
    // ended: stopped, killed, crashed, exited, interrupted, aborted, dead, a previous run. Piling
    // up: "more and more processes", "processes accumulate", "zombie processes", processes from a
    // previous run. Not a code line or a program's output, nor memory kept as expected ("by
    // design", "until the process exits" is how a caching allocator works), nor a condition ("only
    // if", "unless").
    if (gpu_named_here &&
        (has_text("process") || has_text("memory") || has_text("vram") || has_text("nvidia-smi") ||
         has_text("\xe6\x98\xbe\xe5\xad\x98")) && !contains("not the problem") &&
        !contains("not the cause") && !contains("not related") && !word_in("expected") && !contains("by design") &&
        !contains("until the process") && !contains("only if") && !contains("unless")) {
      bool held = false;
      for (std::string_view h : {"not released", "not freed", "never released", "never freed", "not be released",
                                 "not be freed", "not being released", "not being freed", "orphan", "n't released",
                                 "n't freed", "n't get freed", "n't get released", "n't free", "n't release", "still holds",
                                 "still hold", "keep holding", "keeps holding", "still occup", "stays occupied",
                                 "remains occupied", "still in use", "stays allocated", "remains allocated",
                                 "still allocated", "stays on the gpu", "remains on the gpu", "still on the gpu",
                                 "left behind", "leftover", "left over", "hogging", "holding their", "holding its", "holding the", "hanging around", "stays at", "n't exit", "never exit", "still alive", "stay alive", "stays alive",
                                 "still keep", "n't go away", "never go away", "didnt free", "doesnt free", "dont free",
                                 "didnt release", "doesnt release", "dont release", "kept running", "keeps running in",
                                 "stay on the gpu", "sit on the gpu", "sits on the gpu", "sitting on the gpu", "stacking up",
                                 "still listed", "still occupies"}) {
        if (contains(h)) {
          held = true;
          break;
        }
      }
      // "nvidia-smi still shows 20GB used", "memory usage is still 38GB": "still" with the memory,
      // nvidia-smi or a size, not "I still get OOM" (the failure still there).
      if (!held && word_in("still") && (contains("nvidia-smi") || contains("memory") || contains("vram") || size_named(lo, false)) &&
          !contains("still get") && !contains("still have") && !contains("still the same") &&
          !contains("still available") && !contains("still free") && !contains("free") && !contains("available") &&
          !contains("empty_cache") && !still_fails(lo)) {
        held = true;
      }
      // zh: 显存 with 没有释放 / 没释放 / 没放 / 还是被占 / 一直占 / 占着 (not released, still held), after 进程
      // (the process) was killed / stopped / interrupted / crashed / exited (kill, 停止, 停了, 停掉, 中断, 崩溃,
      // 结束, 退出).
      const bool zh_held = contains("\xe6\x98\xbe\xe5\xad\x98") &&
                           (contains("\xe6\xb2\xa1\xe6\x9c\x89\xe9\x87\x8a\xe6\x94\xbe") ||
                            contains("\xe6\xb2\xa1\xe9\x87\x8a\xe6\x94\xbe") || contains("\xe6\xb2\xa1\xe6\x94\xbe") ||
                            contains("\xe8\xbf\x98\xe6\x98\xaf\xe8\xa2\xab\xe5\x8d\xa0") ||
                            contains("\xe4\xb8\x80\xe7\x9b\xb4\xe5\x8d\xa0") || contains("\xe5\x8d\xa0\xe7\x9d\x80")) &&
                           (contains("kill") || contains("\xe5\x81\x9c\xe6\xad\xa2") || contains("\xe4\xb8\xad\xe6\x96\xad") ||
                            contains("\xe5\xb4\xa9\xe6\xba\x83") || contains("\xe7\xbb\x93\xe6\x9d\x9f") ||
                            contains("\xe5\x81\x9c\xe4\xba\x86") || contains("\xe5\x81\x9c\xe6\x8e\x89") ||
                            contains("\xe9\x80\x80\xe5\x87\xba"));
      // zh leftover processes: 残留进程 (leftover process), 进程还挂在 (the process still hangs on).
      const bool zh_left = contains("\xe6\xae\x8b\xe7\x95\x99") && contains("\xe8\xbf\x9b\xe7\xa8\x8b");
      // Told alone: memory held with no process to hold it ("nvidia-smi shows 40000MiB used with
      // nothing running", "that PID doesn't exist anymore"), processes left behind or lingering.
      // Memory held (a size, "used", "holds") where no process is listed: not nvidia-smi's own "No
      // running processes found".
      const bool held_memory = contains("used") || contains("hold") || contains("occup") || size_named(lo, true) ||
                               contains("mib");
      const bool orphaned = (held_memory && (contains("nothing running") || contains("no process listed") ||
                                             contains("no processes") || contains("no running process") ||
                                             contains("no python running"))) ||
                            (contains("pid") && contains("exist anymore")) || contains("linger") || contains("defunct") ||
                            contains("leftover process") || contains("leftover python") || contains("leftover worker") ||
                            (contains("process") && contains("behind") &&
                             (contains("left") || contains("leaves") || contains("leaving")));
      bool ended = contains("ctrl-c") || contains("ctrl+c") || contains("control-c") || contains("keyboardinterrupt") ||
                   contains("keyboard interrupt") || contains("previous run") ||
                   contains("previous job") || contains("previous process") || contains("previous trial") ||
                   contains("previous experiment") || contains("previous training") || contains("previous session") ||
                   contains("old process") || word_in("dead") || word_in("dies") || word_in("died");
      for (std::string_view e : {"kill", "exit", "terminat", "interrupt", "abort", "cancel", "segfault", "closing", "sigkill"}) {
        ended = ended || contains_word_start(lo, e);
      }
      // "stop" / "stopped" / "stopping" as words (not "training stops with OOM"); "closed" not of an
      // issue or a PR.
      ended = ended || word_in("stop") || word_in("stopped") || word_in("stopping") ||
              (word_in("closed") && !contains("closed issue") && !contains("closed pr") && !contains("closed as"));
      // A process or job that crashed ("the python process crashed but the VRAM was never released").
      ended = ended || contains("process crashed") || contains("job crashed") || contains("run crashed") ||
              contains("training crashed") || contains("script crashed");
      // A crash as the end the memory outlived ("after the training crashed"), not as the failure the
      // held memory led to ("memory is not released between steps, so it crashes": a leak).
      ended = ended || (contains_word_start(lo, "crash") && (word_in("after") || word_in("when") || word_in("once")));
      const bool piling = contains("\xe5\x83\xb5\xe5\xb0\xb8\xe8\xbf\x9b\xe7\xa8\x8b") ||  // 僵尸进程 (zombie processes)
                          (contains("processes") &&
                           (contains("more and more processes") || contains("piling") || contains("pile up") ||
                            contains("piled up") || contains("zombie processes") || contains("processes accumulate") ||
                            contains("processes keep accumulating") || contains("processes from my previous") ||
                            contains("processes from previous") || contains("processes from the previous")));
      if (((held && ended) || orphaned || zh_held || zh_left || piling) && sentence) {
        add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.4,
            (piling ? "processes piling up on the GPUs: " : "GPU memory a finished process left behind: ") + text());
      } else if (held && sentence && held_after_finished_run(lo)) {  // (the not-freed words are denials themselves)
        // The memory told held after a run finished inside the process that goes on ("the cuda memory
        // don't free up when finish the first trainer.train()", a notebook's next cell): the finished
        // run's model, trainer or optimizer are still referenced, which the next run adds to.
        add(n, FactKind::kStatement, OomCause::kLeakAcrossSteps, 0.35,
            "GPU memory told held after a finished run in the same process (its objects still referenced): " + text(), 0,
            Told::kAccount);
      }
    }
    // Another copy of a program on the same GPU, told as such: "one notebook works, a second one
    // fails", "running more than 1 vllm instance on a single GPU fails", "another Jupyter kernel
    // still holds the memory". Whole words only ("isinstance" is no instance), and a second copy
    // named (second_copy_named()): "an AWS instance with a single GPU", "the first cell of the
    // notebook", "parallelising across multiple GPUs or using a TPU v3-8 instance" are one program.
    // (Its word split only on a line that holds a copy's word.)
    if (!negated && (contains("notebook") || contains("instance") || contains("kernel") || contains("daemon")) &&
        second_copy_named(lo) && !contains("cuda kernel") && !contains("kernel launch") &&
        !contains("kernel size") && !contains("kernel_size")) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.35, "another program's copy on the GPU: " + text());
    }
    // A model from before still loaded in the same notebook or session when the next is to train
    // ("i cant cause model is loaded into memory so please add a cell to unload it so we can train
    // again instead of disconnecting"): what the earlier cells hold, which only a restart frees.
    if (sentence && !negated && (contains("load") || contains("still")) && earlier_model_still_held(lo)) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.4,
          "a model from before still loaded in the same notebook / session: " + text());
    }
    // Independent runs sharing one GPU, told by their number (runs_share_a_gpu()).
    if (sentence && !negated && runs_share_a_gpu(lo)) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.4, "several independent runs on the same GPU: " + text());
    }
    // A framework's own memory pool taking the GPU from another user of it (pool_takes_gpu_from_another()).
    if (sentence && !negated && pool_takes_gpu_from_another(lo)) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.4,
          "a framework's memory pool (TensorFlow / JAX preallocation) takes the GPU from another user: " + text());
    }
    // One GPU holding more than the others, in words: "the usage of the first GPU is much larger
    // than the others", "GPU 0 uses more memory than the other GPUs", "unbalanced memory across
    // GPUs". A comparison with the other GPUs is needed: cuda:0 alone is any one-GPU run's device.
    // Or GPU memory uneven across devices in other words (gpu_memory_imbalance_prose(), the words
    // that make such a sentence a report).
    if (((has(kWGpuName) || contains("cuda:")) && !negated &&
         (contains("first gpu") || contains("main gpu") || contains("primary gpu") || contains("gpu 0") || contains("gpu0") ||
          contains("cuda:0")) &&
         (contains("than the others") || contains("than other gpu") || contains("than the other gpu") ||
          contains("than the rest") || contains("unbalanced") || contains("uneven") || contains("imbalance")) &&
         !contains("another") && !contains("other process")) ||
        (uneven_word && gpu_memory_imbalance_prose(raw, lo)) || (first_gpu_fills && !negated && sentence) ||
        (!negated && sentence && first_gpu_alone(lo))) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.45, "one GPU holds more than the others: " + text());
    }
    // Experts' tokens routed unevenly over the GPUs of expert parallelism ("Using DeepEP will cause a GPU device
    // to accept more tokens", "the router sends most tokens to a few experts on one rank"): the GPU that
    // receives more tokens holds more activations than the others.
    // (Tokens sent to a GPU or rank, not "more tokens in the prompt"; a single GPU is no expert parallelism.)
    if (!negated && contains_any(lo, {"experts", "expert parallel", "moe", "deepep", "router", "routing"}) &&
        contains_any(lo, {"accept more tokens", "accepts more tokens", "receive more tokens", "receives more tokens",
                          "routed to", "routes more tokens", "sends more tokens", "send more tokens", "sends most tokens",
                          "token imbalance", "imbalanced tokens", "unbalanced tokens", "tokens are unbalanced",
                          "load imbalance"}) &&
        contains_any(lo, {"gpu", "device", "rank"}) &&
        !contains_any(lo, {"single gpu", "single rtx", "one gpu only", "only one gpu", "single card"}) &&
        lo.find('?') == std::string_view::npos) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.4,
          "tokens routed unevenly over the experts' GPUs (one receives more than the others): " + text());
    }
    // GPUs of unequal memory given equal shares ("loads the model half-by-half across two GPUs with
    // different VRAM", "split evenly across cards of unequal sizes"): the smaller one fills first.
    // Not denied ("no different VRAM here", "proportionally, not half-by-half", "unrelated: ...").
    if ((has(kWGpuName) || has(kWMem) || has(kWSetting)) && !negated &&
        (contains("different vram") || contains("different memory") || contains("different amounts of") ||
         contains("unequal") || contains("different sizes") || contains("different gpu memory")) &&
        (contains("half") || contains("evenly") || contains("equally") || contains("split") || contains("equal share")) &&
        !contains("not half") && !contains("proportional") && !contains("no different") && !contains("not different") &&
        !contains("same vram") && !contains("unrelated")) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.45, "GPUs of unequal memory given equal shares: " + text());
    }
    // The GPU chosen with CUDA_VISIBLE_DEVICES is not the one the job ran on: "setting
    // CUDA_VISIBLE_DEVICES=1 doesn't work, it still runs on GPU0", "my mistake setting VISIBLE CUDA".
    // (The words whole, in the clause that names the setting, not a command's flag after '-' ("python
    // tasks/run.py --reset"), a name ("reset_peak_memory_stats", "wrong_labels.yaml") nor denied ("no
    // mistake there"); "I don't know what I'm doing wrong, I run CUDA_VISIBLE_DEVICES=0,1" is another clause.)
    auto prose_word = [](std::string_view t, std::string_view w) {
      for (size_t p = t.find(w); p != std::string_view::npos; p = t.find(w, p + 1)) {
        if (!is_word_at(t, p, w.size()) || (p > 0 && (t[p - 1] == '-' || t[p - 1] == '.' || t[p - 1] == '/'))) continue;
        const std::string_view c = clause_at(t, p);
        const size_t at = p - static_cast<size_t>(c.data() - t.data());
        if (!contains_any(c, {"visible_devices", "visible cuda", "visible device", "visible gpu"})) continue;
        if (contains_any(c.substr(at >= 8 ? at - 8 : 0, at >= 8 ? 8 : at), {"no ", "not ", "n't "})) continue;
        // (Nor asked of the user's own doing: "I don't know what I'm doing wrong", "what went wrong".)
        if (contains_any(c, {"doing wrong", "what's wrong", "what is wrong", "went wrong", "anything wrong", "something wrong"})) {
          continue;
        }
        return true;
      }
      return false;
    };
    if (has(kWVisible) && (contains("visible_devices") || contains("visible cuda") || contains("visible device") ||
                           contains("visible gpu")) &&
        (contains("doesn't work") || contains("does not work") || contains("not working") || contains("ignored") ||
         prose_word(lo, "mistake") || prose_word(lo, "wrong") || prose_word(lo, "reset") ||
         // "it still runs on GPU0" (not "still OOMs": that is the setting not helping)
         (contains("still") && (contains("gpu0") || contains("gpu 0") || contains("cuda:0"))))) {
      add(n, FactKind::kStatement, OomCause::kOtherProcess, 0.4,
          "the GPU chosen (CUDA_VISIBLE_DEVICES) is not the one the job ran on: it shares a busy GPU: " + text());
    }
    // Every rank / process placed on one GPU: "all are loaded into cuda:0", "8 processes will be
    // generated on cuda:0", "each rank puts its model on GPU 0".
    if ((has(kWGpuName) || contains("cuda:")) &&
        (contains("cuda:0") || contains("gpu 0") || contains("gpu0") || contains("same gpu") || contains("first gpu")) &&
        (contains("processes") || contains("all are") || contains("every rank") || contains("each rank") ||
         contains("every process") || contains("each process") || contains("all ranks") || contains("all of them") ||
         contains("all loaded") || contains(" ranks")) &&
        !contains("other") && !contains("another") && !negated) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.45,
          "every rank / process placed on one GPU: " + text());
    }
    // Only one of several GPUs used ("two GPUs set, but only one GPU is used", "it only uses one of
    // the GPUs", zh "设置两张卡，只使用了一张卡" / "只有一张卡被利用"): the work is not spread over the
    // devices it was given, one fills while the others idle. Not asked, denied, nor told as the fix
    // ("using only one GPU fixed it").
    if (sentence && !negated && only_one_of_several_gpus_used(lo)) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.4,
          "only one of several GPUs used: the work is not spread over the devices: " + text());
    }
    // The same in Chinese: extra processes (多出 ... 进程) on GPU 0 in a run over several cards (多卡):
    // "单机多卡或者多机多卡，为什么GPU0上面会多出来三个进程，占用很多显存" (each rank's process also opens a
    // context on GPU 0). Not another person's or program's.
    if (cjk_ideographs(lo) && (contains("gpu0") || contains("gpu 0") || contains("cuda:0") || contains("\xe5\x8d\xa1" "0")) &&
        contains("\xe8\xbf\x9b\xe7\xa8\x8b") &&                                       // 进程 (process)
        (contains("\xe5\xa4\x9a\xe5\x87\xba") || contains("\xe5\xa4\x9a\xe5\x8d\xa1")) &&  // 多出 (extra), 多卡 (several cards)
        // (其他人 / 其它人 / 别人 / 其他用户 / 其他程序: another person's or program's; "其它卡正常", the other
        // cards are fine, is the same run's)
        !contains("\xe5\x85\xb6\xe4\xbb\x96\xe4\xba\xba") && !contains("\xe5\x85\xb6\xe5\xae\x83\xe4\xba\xba") &&
        !contains("\xe5\x88\xab\xe4\xba\xba") && !contains("\xe5\x85\xb6\xe4\xbb\x96\xe7\x94\xa8\xe6\x88\xb7") &&
        !contains("\xe5\x85\xb6\xe4\xbb\x96\xe7\xa8\x8b\xe5\xba\x8f") && !zh_not_told_at(lo, lo.find("\xe8\xbf\x9b\xe7\xa8\x8b"))) {
      add(n, FactKind::kStatement, OomCause::kMultiGpuImbalance, 0.45,
          "extra processes on GPU 0 in a run over several cards (zh): " + text());
    }
    // A shape bug in the user's words: "the shapes are clearly incompatible, but instead of a shape
    // error it tries to allocate", "a regression in the broadcasting code": the request is the
    // program's shapes, not memory pressure.
    // (Not asked in the clause that names it: "Will the shape mismatch cause an error?")
    auto shape_asked = [&] {
      for (std::string_view w : {"incompatible", "mismatch", "shape error", "wrong shape", "broadcast"}) {
        for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
          if (!asked_at(lo, p)) return false;
        }
      }
      return true;
    };
    if (has(kWShapeBug) && !negated && !shape_asked() &&
        (contains("incompatible") || contains("mismatch") || contains("shape error") || contains("wrong shape") ||
         (contains("broadcast") && (contains("bug") || contains("regression"))))) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.5, "a shape bug, in the user's words: " + text());
    }
    // OOMs at random with the same work (no growth, no setting changed): the allocator's cache
    // fragmented by the varying tensors of earlier runs in the same process.
    // ("random" telling when it fails, not a method's or a data's "random features", "random crop".)
    if (has(kWRandom) && (random_failure_told(lo) || contains("intermittent") || contains("sporadic") || contains("occasionally")) &&
        (contains("oom") || contains("out of memory") || contains("out-of-memory"))) {
      add(n, FactKind::kStatement, OomCause::kFragmentation, 0.3, "OOMs at random with the same work: " + text());
    }
    if (has(kWRandom) && (contains("same settings") || contains("without changing") || contains("exact same") ||
                          contains("same parameters")) &&
        (contains("after") || contains("again"))) {
      add(n, FactKind::kStatement, OomCause::kFragmentation, 0.25,
          "fails on a repeat of work that ran before with the same settings: " + text());
    }
    // Host RAM.
    // (Not the GPU's own RAM: "12G video ram", "GPU RAM", gpu_ram_named().)
    // (The host as a noun of memory or of the machine, not the verb: "i am using gradio to host my service".)
    const bool host_named = contains_any(lo, {"host memory", "host ram", "host's", "the host", "host machine", "host side",
                                              "host-side", "host system", "host mem", "on host", "host cpu", "host oom",
                                              "my host", "host has", "host had"});
    if (has(kWRam) && (host_named || contains("system ram") || (contains(" ram ") && !gpu_ram_named(lo)) || contains("swap") ||
                       contains("oom_killer") || contains("dmesg")) &&
        !contains("never")) {  // "the OOMKiller never fired (dmesg is empty)"; "not enough system RAM" is the cause
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.1, "host RAM: " + text());
    }
    // A numpy / SciPy array built with a memory error told on the same line ("I wanted to build
    // scipy.zeros((70000,70000)) matrix but i got a memory error"): numpy allocates in host RAM
    // (Python's MemoryError); not where a GPU or CUDA is named on the line.
    if (numpy_array_error &&
        (contains("zeros(") || contains("ones(") || contains("empty(") || contains("full(") || contains("array(") ||
         contains("eye(") || contains("rand(")) &&
        !contains("cuda") && !contains("gpu") && !contains("cupy") && !negated) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.35,
          "a numpy / SciPy array built with a memory error told (numpy allocates in host RAM): " + text());
    }
    // An allocator's arena that keeps what it holds: "BFCArena has no logic to free those" (ONNX
    // Runtime's BFC arena keeps the first run's blocks), "jemalloc had no way to free memory from a
    // different arena", "the biggest buffer lands in a clean DRAM arena and the smaller ones pack
    // into the remainder": memory held by the allocator and not reusable for the request, which
    // is fragmentation (the blocks are there, in the wrong place or size), not the working set.
    if (sentence && !negated && arena_keeps) {
      add(n, FactKind::kStatement, OomCause::kFragmentation, 0.35,
          "an allocator's arena keeps blocks it cannot free or reuse for the request: " + text());
    }
    // The dataset cached in host memory: tf.data's cache() with no file name keeps every element
    // it has seen in RAM ("The usage of data.cache() causes the run out of memory", "it will cache
    // both the train_data and the validation_data"; TensorFlow's tf.data.Dataset.cache: "If a
    // filename is not provided, the dataset will be cached in memory"). Not a cache on disk.
    if (!negated && dataset_cached) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.35,
          "the dataset cached in host RAM (tf.data's cache() without a file keeps every element in memory): " + text());
    }
    // The process killed, told in a sentence ("the process gets killed", "it was killed in
    // step800+", "Python process gets killed everytime"): what kills a process that runs out of
    // memory is the Linux OOM killer or a cgroup limit, on host RAM (a GPU's OOM is an exception,
    // not a kill). In the corpus's parts, 22 of the 23 reports that say so in the passive are host
    // RAM, the other host RAM that grew (a leak).
    // Not asked: the clause that tells the kill does not end with '?' ("... the OS kills the process.
    // Can you please help me out?" tells it).
    if (sentence && kill_told && !negated &&
        once_per_window(last_killed_, OomCause::kCpuRam, n)) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.4,
          "the process was killed (the Linux OOM killer / a cgroup limit ends a process that takes the host's RAM): " +
              text(),
          0, Told::kAccount);
    }
    // A kill (exit code 137, SIGKILL, "killed") told while the memory is told low ("returns 137 exit
    // code ... But the memory and the GPU memory usage is low (12/24GB GPU, 3GB/32GB memory)"): no
    // memory ran out; something else sent the kill (a liveness or health check, a timeout, the
    // orchestrator), not the OOM killer.
    if (!negated && ((contains("137") && contains_word(lo, "137")) || contains("sigkill") || contains("killed")) &&
        host_memory_told_low(lo)) {
      add(n, FactKind::kStatement, OomCause::kOther, 0.45,
          "a kill told while the memory is told low: something other than memory sent it (a health check, a timeout, "
          "the orchestrator): " + text(),
          0, Told::kAccount);
      add(n, FactKind::kStatement, OomCause::kCpuRam, -0.2, "the host's memory told low beside the kill: " + text());
    }
    // The same told in Chinese: "自动kill程序了" (the program was killed by itself), "被kill" / "被杀" /
    // "杀掉" / "杀死" (killed), or the system's own OOM ("系统会OOM", "系统OOM"), on a line that does not
    // name the GPU's memory (显存).
    if (!ascii_ && zh_kill_told(lo) && once_per_window(last_killed_, OomCause::kCpuRam, n)) {
      add(n, FactKind::kStatement, OomCause::kCpuRam, 0.4,
          "the process was killed (the Linux OOM killer / a cgroup limit ends a process that takes the host's RAM), in "
          "the user's words: " + text(),
          0, Told::kAccount);
    }
    // The caching allocator's cache told: "reserved but unallocated memory was high", "reserved is
    // much larger than allocated".
    if (sentence && contains("unallocated") && reserved_unallocated_told(lo)) {
      add(n, FactKind::kStatement, OomCause::kFragmentation, 0.45,
          "memory reserved by the allocator but unallocated, in the user's words: " + text(), 0, Told::kAccount);
    }
    // TensorFlow's allocator switch set by the user (TF_GPU_ALLOCATOR=cuda_malloc_async), not in the
    // hint TensorFlow prints under its OOM (kPrintedAdvice).
    const bool tf_async = contains("cuda_malloc_async") && !printed_advice_by([&](std::string_view x) { return line_has(lo, x); });
    // An allocator setting told already set or tried without effect ("expandable_segments:True had no
    // effect, same error", "I already set max_split_size_mb:128"): the remedy for fragmentation is in
    // place and it still fails, evidence against fragmentation, not for it.
    const bool alloc_setting = contains("expandable_segments") || contains("max_split_size_mb") || tf_async;
    // (Not when it is told to have worked: "I tried expandable_segments and it fixed it".)
    const bool remedy_tried = alloc_setting && !success_told(lo) && !contains("fixed") && !contains("solved") &&
                              !contains("helped") &&
                              (contains("no effect") || contains("already") || contains("didn't help") ||
                               contains("did not help") || contains("doesn't help") || contains("does not help") ||
                               contains("still") || contains("same error") || contains("no difference") ||
                               contains("not help") || contains("tried") || contains("doesn't work") ||
                               contains("does not work") || contains("didn't work") || contains("did not work"));
    if (remedy_tried && !contains("to avoid fragmentation")) {
      add(n, FactKind::kStatement, OomCause::kFragmentation, -0.15,
          "an allocator setting already set or tried without effect: " + text());
    } else if (has(kWFrag) && !negated && !contains("to avoid fragmentation") &&  // the message's own hint, quoted
               (contains("fragmentation") || contains("fragmented") || alloc_setting)) {  // not a "fragment" of something
      add(n, FactKind::kStatement, OomCause::kFragmentation, 0.05, "the word 'fragmentation' / allocator settings: " + text());
    }
    // Fragmentation told as what happened to the memory: "persistent allocations fragment the
    // caching allocator", "CUDA memory seems to get fragmented", "due to memory fragmentation it
    // cannot allocate ...". Not PyTorch's own hint ("to avoid fragmentation"), an allocator's
    // statistics ("0.7% fragmentation"), a piece of something ("a fragment of GPU memory", audio
    // "fragments"), a question or a condition ("if the cause is fragmentation").
    // Told as the cause itself ("The root cause is heap fragmentation seeded by the checkpoint load,
    // not a real memory shortage"): the user's diagnosis, above what the run's circumstances suggest
    // (resuming, 0.5).
    if (sentence && !negated && contains("fragment") && fragmentation_told(lo)) {
      const bool as_cause = contains("root cause") || contains("the cause is") || contains("caused by");
      add(n, FactKind::kStatement, OomCause::kFragmentation, as_cause ? 0.6 : 0.35,
          "fragmentation, in the user's words: " + text(), 0, Told::kAccount);
    }
    if (has(kWShapes) && (contains("variable length") || contains("variable-length") || contains("dynamic shape") ||
                          contains("different lengths") || contains("varying"))) {
      add(n, FactKind::kStatement, OomCause::kFragmentation, 0.1, "varying tensor shapes: " + text());
    }
    // Variable-length batches told peaking past the memory ("SQuAD's variable-length batches spike some
    // steps past 80 GiB", "with varying lengths the longest batches exceed the GPU"): the steps that fail
    // are those drawing the longest inputs, activations that grow with the length (as the padded
    // batch's T), not memory kept or cut up.
    if (sentence && !negated &&
        contains_any(lo, {"variable-length", "variable length", "varying length", "varying-length", "varying sequence length",
                          "different lengths"}) &&
        contains_any(lo, {"spike", "peak", "longest", "past ", "exceed", "over the limit", "some steps", "some batches"}) &&
        !contains_word(lo, "only") && lo.find('?') == std::string_view::npos) {
      add(n, FactKind::kStatement, OomCause::kActivationsSeqlen, 0.35,
          "variable-length batches told peaking past the memory (the steps that draw the longest inputs fail): " + text(),
          0, Told::kAccount);
    }
    // Tensors told allocated again and again at different sizes ("when you pre-allocate you prevent
    // multiple tensors of different sizes from having to be created", "it reallocates buffers of
    // varying sizes every step"): the caching allocator's blocks, cut for one size, do not serve the
    // next, which is fragmentation (its remedy: allocate the largest shape first, or fixed shapes).
    if (sentence && !negated && contains("alloc") &&
        (contains("realloc") || contains("pre-alloc") || contains("prealloc") || contains("allocated again")) &&
        (contains("different sizes") || contains("different size ") || contains("varying sizes") || contains("many sizes") ||
         contains("various sizes") || contains("different shapes") || contains("varying shapes") ||
         contains("randomly create") || contains("random size") || contains("random length"))) {
      add(n, FactKind::kStatement, OomCause::kFragmentation, 0.35,
          "tensors allocated again at different sizes, in the user's words (the cached blocks of one size do not serve "
          "the next): " + text(),
          0, Told::kAccount);
    }
  }

  // `s` in the line `lo` that statement() is reading (pairs_ holds its character pairs): a
  // substring search, skipped where the line lacks the phrase's first, middle or last character pair.
  bool line_has(std::string_view lo, std::string_view s) const {
    return pairs_.may_contain(s) && lo.find(s) != std::string_view::npos;
  }

  // A line a program printed rather than a person wrote: a logger's prefix (has_log_prefix(): a
  // timestamp, glog's "W0501 ...]", a level "WARNING:", "[rank0]:", "(pid=12)"), a source location
  // "file.cc:123]" or "[rank0]:[E" anywhere, TensorFlow's "Allocation of N exceeds 10% of free
  // system memory", or a framework's advice printed under its OOM message (printed_advice_by();
  // PyTorch's "... to avoid fragmentation"). `lo` is `raw` ASCII-lowercased.
  bool printed_line(std::string_view raw, std::string_view lo) const {
    if (has_log_prefix(raw)) return true;
    for (std::string_view x : {".cc:", ".cpp:", "]:[e", "]:[w", "to avoid fragmentation", "% of free system memory"}) {
      if (line_has(lo, x)) return true;
    }
    return printed_advice_by([&](std::string_view x) { return line_has(lo, x); });
  }

  // Whether one clause (a piece of a line between ". ", "; ", "? ", "! ", " but ") denies or asks
  // rather than tells: "didn't help", "wasn't the cause", "never fixed", "no longer works", "I
  // tried ...", "still OOMs", or it ends with '?'.
  // Whether a clause ends asking: its last character, trailing blanks aside, is '?' or '？'.
  static bool asks(std::string_view clause) {
    while (!clause.empty() && (clause.back() == ' ' || clause.back() == '\r' || clause.back() == '\t')) clause.remove_suffix(1);
    if (!clause.empty() && clause.back() == '?') return true;
    return clause.size() >= 3 && clause.substr(clause.size() - 3) == "\xef\xbc\x9f";  // '？'
  }

  static bool denied_or_asked(std::string_view clause) {
    if (asks(clause)) return true;
    // A fix supposed, not told done ("This could be fixed by reducing batch size or use memory when
    // needed", "it might be solved by a smaller input"): the user's guess, not an account.
    // (Told done all the same: "the issue could be solved by reducing the batch size to 4, which I did, and
    // training now runs fine", "it turned out this could be resolved by ...": the account.)
    const bool supposed_fix =
        contains_any(clause, {"could be fixed", "could be solved", "could be resolved", "might be fixed", "might be solved",
                              "might be resolved", "may be fixed", "may be solved", "may be resolved", "could be avoided",
                              "might be avoided"}) ||
        (contains_any(clause, {"can be fixed", "can be solved", "can be resolved"}) &&
         contains_any(clause, {"maybe", "perhaps", "i think", "i guess", "probably"}));
    if (supposed_fix && !contains_any(clause, {"which i did", "i did", "turned out", "now runs", "runs fine now", "works now",
                                               "now works", "it worked", "that worked", "no oom"})) {
      return true;
    }
    // "It no longer OOMs", "doesn't crash anymore": the negation is the success told, not a denial.
    // A fix denied beside it still denies ("reducing the batch size didn't help, it doesn't crash
    // right away but after a few hundred steps").
    bool fix_denied = false;
    for (std::string_view x : {"n't help", "not help", "n't work", "not work", "n't fix", "not fix", "n't solve", "not solve",
                               "no effect", "no difference", "n't change", "not change"}) {
      fix_denied = fix_denied || clause.find(x) != std::string_view::npos;
    }
    const bool success = success_despite_failure_word(clause) && !fix_denied;
    // A shortage told with a negation is the cause, not a denial: "Didn't have enough CPU
    // memory", "there is not enough RAM".
    if (!fix_denied && (clause.find("n't have enough") != std::string_view::npos ||
                        clause.find("not have enough") != std::string_view::npos ||
                        clause.find("not enough") != std::string_view::npos)) {
      return false;
    }
    // A belief told as mistaken ("I thought that using torch.no_grad() freed the memory"): the knob
    // was in use, not the cure.
    for (std::string_view x : {"not ", "n't", "never", "neither", "no longer", "nothing", "no luck", "no effect", "tried",
                               "still", "without success", "cannot", "i thought", "i assumed", "i believed"}) {
      if (success && x != "tried" && x != "still" && x != "without success" && x.rfind("i ", 0) != 0) continue;
      if (clause.find(x) != std::string_view::npos) return true;
    }
    return false;
  }

  // A clause that tells the whole model is larger than one device's memory ("models larger than
  // one card's memory cannot run", "a model that exceeds a single GPU's memory") or that all of its
  // parameters are gathered onto one device ("ZeRO-3 still gathers all parameters onto a single
  // card"); zh: 超过单卡显存 / 大于单卡显存 (beyond one card's memory), 所有参数收集到单卡 (all
  // parameters gathered onto one card). Not asked, supposed ("if the model ...") or denied.
  static bool model_beyond_one_device(std::string_view lo) {
    if (lo.find("\xe5\x8d\x95\xe5\x8d\xa1") != std::string_view::npos) {  // 单卡
      const bool zh_model = lo.find("\xe6\xa8\xa1\xe5\x9e\x8b") != std::string_view::npos;  // 模型
      for (std::string_view x : {std::string_view("\xe8\xb6\x85\xe8\xbf\x87\xe5\x8d\x95\xe5\x8d\xa1"),  // 超过单卡
                                 std::string_view("\xe5\xa4\xa7\xe4\xba\x8e\xe5\x8d\x95\xe5\x8d\xa1")}) {  // 大于单卡
        const size_t p = lo.find(x);
        if (zh_model && p != std::string_view::npos && !zh_not_told_at(lo, p)) return true;
      }
      const size_t all = lo.find("\xe6\x89\x80\xe6\x9c\x89\xe5\x8f\x82\xe6\x95\xb0");  // 所有参数
      if (all != std::string_view::npos && lo.find("\xe6\x94\xb6\xe9\x9b\x86", all) != std::string_view::npos &&  // 收集
          !zh_not_told_at(lo, all)) {
        return true;
      }
    }
    if (lo.find("model") == std::string_view::npos && lo.find("param") == std::string_view::npos) return false;
    if (lo.find("one ") == std::string_view::npos && lo.find("single") == std::string_view::npos &&
        lo.find("a gpu's") == std::string_view::npos) {
      return false;
    }
    for (std::string_view clause : clauses(lo)) {
      auto has = [&](std::string_view s) { return clause.find(s) != std::string_view::npos; };
      // Asked, or the claim itself denied ("the model is not larger than one GPU"); what follows
      // from it may be negative ("models larger than one card's memory cannot run").
      std::string_view end = clause;
      while (!end.empty() && (end.back() == ' ' || end.back() == '.')) end.remove_suffix(1);
      if ((!end.empty() && end.back() == '?') || has("not larger") || has("n't larger") || has("not bigger") ||
          has("n't bigger") || has("not exceed") || has("n't exceed") || has("never exceed") || has("not gather") ||
          has("n't gather") || has("no longer gather") || has("if the model") || has("whether") || has("n't think") ||
          has("not think") || has(" can ") || has("not the model")) {
        continue;  // "Models larger than one card can run with FSDP": a general statement, not this run
      }
      const bool one_device = has("one gpu") || has("single gpu") || has("one card") || has("single card") ||
                              has("one device") || has("single device") || has("one rank") || has("a gpu's memory");
      if (!one_device) continue;
      // The model the subject: within 30 characters before the comparison.
      bool beyond = false;
      for (std::string_view v : {"larger than", "bigger than", "exceed"}) {
        const size_t p = clause.find(v);
        if (p == std::string_view::npos) continue;
        const size_t from = p > 30 ? p - 30 : 0;
        beyond = beyond || clause.substr(from, p - from).find("model") != std::string_view::npos;
      }
      const bool gathered = (has("gather") || has("collect")) && (has("all param") || has("all the param") ||
                                                                   has("full model") || has("whole model") ||
                                                                   has("full weights") || has("all weights"));
      if (beyond || gathered) return true;
    }
    return false;
  }

  // `s` with each '-' between two letters replaced by `with` ("--max-length" read as "--max_length" or
  // "--max length": a command line's flags spell the knobs with hyphens).
  static std::string hyphens_between_letters(std::string_view s, char with) {
    std::string out(s);
    for (size_t q = 1; q + 1 < out.size(); ++q) {
      if (out[q] == '-' && is_alpha(out[q - 1]) && is_alpha(out[q + 1])) out[q] = with;
    }
    return out;
  }


  // The clause of `lo` (clauses()) holding lo[pos] denies (没有, 没, 不是, 不会, 并未, 未), asks
  // (是不是, 是否, 吗, ？, ?) or supposes (如果, 假如) what it says: not told as happened.
  // ("跑不起来超过单卡显存的模型" is no denial: 不 alone is not read; "即使设置了...也没用" in the
  // next clause does not count.)
  static bool zh_not_told_at(std::string_view lo, size_t pos) {
    const std::string_view c = clause_at(lo, pos);
    for (std::string_view x : {"\xef\xbc\x9f", "?", "\xe6\xb2\xa1", "\xe4\xb8\x8d\xe6\x98\xaf", "\xe4\xb8\x8d\xe4\xbc\x9a",
                               "\xe6\x9c\xaa", "\xe6\x98\xaf\xe5\x90\xa6", "\xe5\x90\x97", "\xe5\xa6\x82\xe6\x9e\x9c",
                               "\xe5\x81\x87\xe5\xa6\x82"}) {
      if (c.find(x) != std::string_view::npos) return true;
    }
    return false;
  }


  // Memory told to rise and then fall ("increases first and then decreases", "then drops") in a
  // clause, and no other clause of `lo` telling a rise: a phase's peak, not growth across steps.
  static bool rise_then_fall_only(std::string_view lo) {
    static constexpr std::string_view kFall[] = {"then decreas", "then drops", "then goes down", "then falls",
                                                 "then comes down"};
    if (!std::any_of(std::begin(kFall), std::end(kFall), [&](std::string_view f) { return lo.find(f) != std::string_view::npos; })) {
      return false;
    }
    for (std::string_view c : clauses(lo)) {
      size_t fall = std::string_view::npos;
      for (std::string_view f : kFall) fall = std::min(fall, c.find(f));
      if (fall != std::string_view::npos) {
        // The fall is the crash's ("... and then decreases only when the process crashes"): growth.
        const std::string_view after = c.substr(fall, 60);
        if (contains_any(after, {" when", " until", " once"}) && contains_any(after, {"crash", "killed", "dies", "restart"})) {
          return false;
        }
        continue;
      }
      if (contains_any(c, {"increas", "grow", "rising", "rises", "climb", "accumulat", "keeps going up"})) return false;
    }
    return true;
  }

  // The machine told to have no GPU: an environment listing's "GPU: none" / "GPU: N/A", PyTorch's
  // collect_env "Is CUDA available: False", a CPU-only build ("cpuonly", "+cpu" wheels named "CPU
  // only") or the user's words ("no GPU", "without a GPU", "I don't have a GPU", "runs on the CPU
  // only"). Not "no GPU memory left" (the GPU's memory), a question, a code line or advice ("use the
  // CPU only").
  static bool no_gpu_told(std::string_view lo) {
    // The Hugging Face issue template's environment ("- PyTorch version (GPU?): 1.7.1 (False)", from
    // `transformers-cli env`): the framework's build sees no GPU. (Its "(GPU?)" is the template's
    // question, not the user's.)
    // (PyTorch's line only: TensorFlow's "(False)" beside PyTorch's "(True)" is TensorFlow's build.)
    if (const size_t q = lo.find("pytorch version (gpu?):"); q != std::string_view::npos) {
      const std::string_view t = trim_view(lo.substr(q));
      return t.size() >= 7 && t.substr(t.size() - 7) == "(false)";
    }
    if (code_line(lo)) return false;
    // Told of another run or machine beside a GPU one: "Training works without a GPU, but on the GPU
    // it fails", "my laptop has no GPU, so I moved to the server".
    if (contains_any(lo, {"on the gpu", "on a gpu", "on gpu", "with a gpu", "with the gpu", "server", "moved", "switched",
                          "works", "worked", "runs fine", "ran fine", "cluster", "colab", "laptop", "my other"})) {
      return false;
    }
    if (asks(lo)) return false;
    for (std::string_view x : {"gpu: none", "gpus: none", "gpu: n/a", "gpu : none", "gpu: no ", "gpu: not available",
                               "is cuda available: false", "cuda available: false", "cuda_available: false",
                               "cuda.is_available() returns false", "cuda.is_available() is false",
                               "without a gpu", "without any gpu", "don't have a gpu", "do not have a gpu",
                               "don't have any gpu", "have no gpu", "has no gpu", "cpu only", "cpu-only", "cpuonly",
                               "on cpu only", "only cpu",
                               // "train with just CPU", "using only the CPU", "on the CPU alone"
                               "just cpu", "just the cpu", "just a cpu", "only the cpu", "cpu alone"}) {
      const size_t p = lo.find(x);
      if (p == std::string_view::npos || !word_starts_at(lo, p)) continue;
      // "use the CPU only", "try CPU-only": advice, not the machine; "I'm not running with just CPU": denied
      const std::string_view before = lo.substr(p >= 20 ? p - 20 : 0, p >= 20 ? 20 : p);
      if (contains_any(before.substr(before.size() >= 12 ? before.size() - 12 : 0), {"use ", "try ", "switch", "fall back", "fallback"}) ||
          contains_any(before, {"not ", "n't "})) {
        continue;
      }
      return true;
    }
    // "no GPU", "without GPU" ("Out of Memory Error without GPU"), not the GPU's memory or use told
    // (gpu_denial_names_other()).
    for (std::string_view x : {std::string_view("no gpu"), std::string_view("without gpu")}) {
      for (size_t p = lo.find(x); p != std::string_view::npos; p = lo.find(x, p + 1)) {
        if (word_starts_at(lo, p) && !gpu_denial_names_other(lo, p + x.size())) return true;
      }
    }
    return false;
  }

  // Growth told against a count of repeats ("as the number of inferences / iterations / epochs /
  // calls increases, ..."), not of layers, GPUs, tokens generated, requests or images in a batch (the
  // model's size, the parallelism, a KV cache, the batch).
  static bool repeats_counted(std::string_view lo) {
    for (std::string_view lead : {"as the number of ", "with the number of "}) {
      for (size_t p = lo.find(lead); p != std::string_view::npos; p = lo.find(lead, p + 1)) {
        const std::string_view what = lo.substr(p + lead.size(), 24);
        for (std::string_view r : {"inference", "iteration", "epoch", "step", "call", "run", "loop", "prediction",
                                   "evaluation", "episode", "forward pass", "training step", "predict"}) {
          if (what.rfind(r, 0) == 0) return true;
        }
      }
    }
    return false;
  }

  // Every phrase of a load on the line ("loading the model", "when loading", "load the model") sits in
  // a clause that asks ("... give max_memory when loading the model ?"): the load is asked about, not
  // told as where it failed.
  static bool load_only_asked(std::string_view lo) {
    return only_asked(lo, {"while loading", "when loading", "loading the model", "load the model", "before training",
                           "before the first"});
  }

  // Every occurrence of the phrases on the line sits in a clause (clauses()) that ends with '?';
  // false when none occurs.
  // An increase of memory asked about as the size expected: every growth word ("increas", "grow",
  // "rise", "rising") has a '?' within 60 characters after it, in the same sentence or past an
  // abbreviation's dot ("shouldn't be the memory increase approx. 9 GB or so?").
  static bool increase_asked_as_expected(std::string_view lo) {
    bool any = false;
    for (std::string_view x : {"increas", "grow", "rise", "rising"}) {
      for (size_t p = lo.find(x); p != std::string_view::npos; p = lo.find(x, p + 1)) {
        any = true;
        const size_t q = lo.find('?', p);
        if (q == std::string_view::npos || q - p > 60) return false;
      }
    }
    return any;
  }

  static bool only_asked(std::string_view lo, std::initializer_list<std::string_view> phrases) {
    bool any = false;
    for (std::string_view x : phrases) {
      for (size_t p = lo.find(x); p != std::string_view::npos; p = lo.find(x, p + 1)) {
        any = true;
        if (!asks(clause_at(lo, p))) return false;
      }
    }
    return any;
  }

  // CUDA_VISIBLE_DEVICES set to one device on the lower-cased line `lo` ("CUDA_VISIBLE_DEVICES=0", "=3"):
  // the run sees one GPU by choice.
  static bool one_visible_device(std::string_view lo) {
    for (size_t p = lo.find("cuda_visible_devices="); p != std::string_view::npos; p = lo.find("cuda_visible_devices=", p + 21)) {
      size_t e = p + 21;
      if (e < lo.size() && (lo[e] == '"' || lo[e] == '\'')) ++e;
      size_t d = e;
      while (d < lo.size() && is_digit(lo[d])) ++d;
      if (d > e && (d >= lo.size() || lo[d] != ',')) return true;
    }
    return false;
  }

  // The other GPUs told free, empty, idle or far less used beside the one that ran out, in one clause (the others also by
  // their numbers, "while cards 1 and 2 still had 12G of free memory"):
  // "it OOMs even if the other GPUs are free", "GPU 0 is full while the rest of the GPUs are empty",
  // "the remaining cards stay idle", "my two other GPU memory usage are at only 50%"; or GPU 0 told
  // holding far more than the others. Not a question, a denial ("the other GPUs are not free"), a code line or a
  // program's output.
  static bool other_gpus_free_told(std::string_view lo) {
    if (code_line(lo)) return false;
    for (std::string_view c : clauses(lo)) {
      if (asks(c)) continue;
      // GPU 0 told holding far more than another ("cuda:0 memory usage is much higher than cuda:1").
      if (contains_any(c, {"cuda:0", "gpu0", "gpu 0", "gpu:0"}) &&
          contains_any(c, {"much higher than", "much more than", "far more than", "way more than", "much larger than"}) &&
          contains_any(c, {"than cuda:", "than gpu", "than the other", "than other", "than the rest"}) &&
          !contains_any(c, {" not ", "n't "})) {
        return true;
      }
      size_t p = std::string_view::npos;
      // (Also the others by their numbers: "while cards 1 and 2 still had 12G of free memory".)
      for (std::string_view who : {"other gpus", "other gpu ", "other cards", "other devices", "rest of the gpus",
                                   "rest of gpus", "remaining gpus", "remaining cards", "others gpus", "while others ",
                                   "while the others ", "while cards 1", "while card 1", "while gpus 1", "while gpu 1",
                                   "while cuda:1", "but gpu 1", "but cuda:1", "but card 1"}) {
        p = std::min(p, c.find(who));
      }
      if (p == std::string_view::npos) continue;
      const std::string_view after = c.substr(p, 60);
      if (contains_any(after, {" not ", "n't ", "also full", "are full", "are also"})) continue;
      // free because this job never used them ("because I only set CUDA_VISIBLE_DEVICES=0"), or the job
      // moved to one of them and still fails: no unevenness
      if (contains_any(after, {"because", " as i ", " since "}) ||
          contains_any(lo, {"not used by", "unused by this", "not part of this", "not part of the job", "gpu 0 only",
                            "only gpu 0", "only on gpu 0", "single gpu"}) ||
          one_visible_device(lo) ||
          contains_any(c, {"cuda_visible_devices", "only use", "only have", "moved", "still fail", "still crash",
                           "still oom"})) {
        continue;
      }
      if (contains_any(after, {"still had", "of free memory", "is free", "has free",
                               "are free", "are empty", "are idle", "are unused", "stay empty", "stay idle", "remain empty",
                               "remain free", "remain idle", "were free", "were empty", "were idle", "have free",
                               "still have", "barely used", "are almost empty", "are mostly empty", "sit idle",
                               // or using far less: "my two other GPU memory usage are at only 50%"
                               "at only", "only at", "much less", "much lower", "far less", "far lower",
                               "are fine", "are normal"})) {
        return true;
      }
      // "GPU 0 runs out of memory while others are at 60%": a share under 80%.
      if (const size_t a = after.find("are at "); a != std::string_view::npos) {
        size_t e = a + 7;
        int pct = 0;
        while (e < after.size() && is_digit(after[e]) && pct < 1000) pct = pct * 10 + (after[e++] - '0');
        if (e > a + 7 && e < after.size() && after[e] == '%' && pct < 80) return true;
      }
    }
    // zh: the first card (第一张卡 / 第一块卡 / 0号卡) told blown or full (爆 / 满 / oom / 溢出) and the second or
    // the other cards (第二张 / 第二块 / 其他卡 / 其它卡 / 另一张) normal (正常) or with room (还有 / 没满).
    if (contains_any(lo, {"\xe7\xac\xac\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1",
                          "\xe7\xac\xac\xe4\xb8\x80\xe5\x9d\x97\xe5\x8d\xa1", "0\xe5\x8f\xb7\xe5\x8d\xa1"}) &&
        (contains_any(lo, {"\xe7\x88\x86", "oom", "\xe6\xba\xa2\xe5\x87\xba"}) ||
         [&] {  // 满 (full), not in 没满 (not full)
           for (size_t p = lo.find("\xe6\xbb\xa1"); p != std::string_view::npos; p = lo.find("\xe6\xbb\xa1", p + 3)) {
             if (p < 3 || lo.compare(p - 3, 3, "\xe6\xb2\xa1") != 0) return true;
           }
           return false;
         }()) &&
        contains_any(lo, {"\xe7\xac\xac\xe4\xba\x8c\xe5\xbc\xa0", "\xe7\xac\xac\xe4\xba\x8c\xe5\x9d\x97",
                          "\xe5\x85\xb6\xe4\xbb\x96\xe5\x8d\xa1", "\xe5\x85\xb6\xe5\xae\x83\xe5\x8d\xa1",
                          "\xe5\x8f\xa6\xe4\xb8\x80\xe5\xbc\xa0"}) &&
        contains_any(lo, {"\xe6\xad\xa3\xe5\xb8\xb8", "\xe8\xbf\x98\xe6\x9c\x89", "\xe6\xb2\xa1\xe6\xbb\xa1"}) &&
        !contains_any(lo, {"\xe5\x90\x97", "?", "\xef\xbc\x9f"})) {
      return true;
    }
    return false;
  }

  // Whether `c` tells a rise in numbers after `from`: "from A to B", "A -> B" / "A → B", "to B (was A)",
  // "to B (previously A)" (a trailing k multiplies by 1000); nullopt when no such numbers are there.
  static std::optional<bool> rise_told(std::string_view c, size_t from) {
    auto number_at = [&](size_t p, size_t* end) -> std::optional<int64_t> {
      while (p < c.size() && c[p] == ' ') ++p;
      size_t e = p;
      int64_t v = 0;
      while (e < c.size() && is_digit(c[e]) && e - p < 12) v = v * 10 + (c[e++] - '0');
      if (e == p) return std::nullopt;
      if (e < c.size() && (c[e] == 'k' || c[e] == 'K')) v *= 1000, ++e;
      *end = e;
      return v;
    };
    for (size_t p = c.find("from ", from); p != std::string_view::npos; p = c.find("from ", p + 1)) {
      size_t e = 0;
      auto a = number_at(p + 5, &e);
      if (!a) continue;
      size_t q = e;
      while (q < c.size() && c[q] == ' ') ++q;
      size_t t = c.compare(q, 3, "to ") == 0 ? q + 3 : c.compare(q, 2, "->") == 0 ? q + 2 : std::string_view::npos;
      if (t == std::string_view::npos) continue;
      if (auto b = number_at(t, &e)) return *b > *a;
    }
    for (size_t p = c.find("to ", from); p != std::string_view::npos; p = c.find("to ", p + 1)) {
      size_t e = 0;
      auto b = number_at(p + 3, &e);
      if (!b) continue;
      size_t q = e;
      while (q < c.size() && (c[q] == ' ' || c[q] == '(')) ++q;
      const size_t skip = c.compare(q, 4, "was ") == 0 ? 4 : c.compare(q, 5, "from ") == 0 ? 5
                          : c.compare(q, 11, "previously ") == 0 ? 11 : 0;
      if (skip == 0) continue;
      if (auto a = number_at(q + skip, &e)) return *b > *a;
    }
    // "batch_size: 16 -> 32", "1024 → 4096": a number, an arrow, a number
    for (std::string_view arrow : {"->", "\xe2\x86\x92"}) {
      for (size_t p = c.find(arrow, from); p != std::string_view::npos; p = c.find(arrow, p + 1)) {
        size_t s0 = p;
        while (s0 > 0 && c[s0 - 1] == ' ') --s0;
        size_t d = s0;
        while (d > 0 && is_digit(c[d - 1])) --d;
        if (d == s0) continue;
        size_t e = 0;
        auto a = number_at(d, &e);
        auto b = a ? number_at(p + arrow.size(), &e) : std::nullopt;
        if (a && b) return *b > *a;
      }
    }
    return std::nullopt;
  }

  // A setting told raised before the failure, in one clause of a sentence line: a word of raising
  // ("increased", "raised", "bumped", "doubled"; "changed" / "set" / "went from" only with the
  // numbers of a rise: "from 512 to 2048", "to 4096 (was 1024)"; a comparative right before the
  // knob: "a larger batch size", "a higher resolution") and the knob it raised, with a failure on the
  // line: "I increased max_seq_len from 512 to 2048 and now training OOMs" -> activations_seqlen,
  // "after raising the batch size to 64 it crashes" -> activations_batch, "since I bumped n_ctx to
  // 32k it runs out of memory" -> generation_kv_cache, "more num_workers ... killed" -> cpu_ram.
  // Not from advice ("try increasing", "you could raise"), what a fix allows ("no_grad ... to allow
  // larger batch sizes"), a question, a denial of the rise ("I didn't increase"), a code line or a
  // program's output; one fact per cause per 50 lines, 0.35 (a
  // sentence: never a verdict by itself).
  void raised_setting_told(std::string_view raw, std::string_view lo, int64_t n) {
    static constexpr std::string_view kVerbs[] = {"increas", "rais", "bump", "doubl", "chang", "set ", "went from",
                                                  "going from", "go from", "larger", "bigger", "higher", "longer", "more "};
    auto has = [&](std::string_view w) { return lo.find(w) != std::string_view::npos; };
    if (std::none_of(std::begin(kVerbs), std::end(kVerbs), has) && !has("->") && !has("\xe2\x86\x92")) return;
    // A failure told in the clause of the rise or the next one ("... and now training OOMs. It
    // crashes at step 0"), not one told of other runs ("other runs finished fine with higher batch
    // sizes").
    auto failed_in = [](std::string_view c) {
      auto in = [&](std::string_view w) { return c.find(w) != std::string_view::npos; };
      return (in("oom") && !in("without oom") && !in("no oom") && !in("n't oom") && !in("no longer oom") &&
              !in("not to oom") && !in("not oom")) ||
             in("out of memory") || in("crash") || in("fails") || in("failed") || in("killed") || in("run out") ||
             in("runs out") || in("ran out") || in("n't fit") || in("not fit") || in("out-of-memory");
    };
    auto succeeded_in = [](std::string_view c) {
      return contains_any(c, {"fine", "worked", "works", "finished", "succeed", "no problem", "no issue"});
    };
    if (!failed_in(lo) || code_line(lo) || printed_line(raw, lo)) return;
    // The rise undone and the failure still there ("... increased the batch size to 32, but I reverted
    // it to 8 and it still OOMs"): not the rise's failure.
    if (contains_any(lo, {"revert", "rolled back", "went back", "back to", "undid", "undo", " still "})) return;
    static constexpr std::string_view kAdvice[] = {"try ", "you can", "you could", "you should", "you may", "recommend",
                                                   "suggest", "please", "consider", "instead of", "n't increase",
                                                   "not increase", "without increas", "n't change", "not change",
                                                   "n't raise", "not raise", "n't set", "if you",
                                                   // what a fix makes possible: "no_grad ... to allow larger batch sizes"
                                                   "allow", "enabl", "lets ", "so that", "in order to",
                                                   // supposed, not done: "if I increase the batch size to 64 it will crash"
                                                   "if i ", "if we ", " would ", " will "};
    // A command line's flags spell the knobs with hyphens ("--max-length", "--batch-size").
    const std::string underscored = hyphens_between_letters(lo, '_');
    const std::vector<std::string_view> parts = clauses(underscored);
    for (size_t i = 0; i < parts.size(); ++i) {
      const std::string_view c = parts[i];
      if (succeeded_in(c) || !(failed_in(c) || (i + 1 < parts.size() && failed_in(parts[i + 1])))) continue;
      if (asks(c) ||
          std::any_of(std::begin(kAdvice), std::end(kAdvice), [&](std::string_view a) { return c.find(a) != std::string_view::npos; })) {
        continue;
      }
      for (const SettingKnob& k : kSettingKnobs) {
        size_t kp = c.find(k.text);
        if (kp == std::string_view::npos || !word_starts_at(c, kp)) continue;
        bool told = false;
        for (std::string_view v : kVerbs) {
          const size_t vp = c.find(v);
          if (vp == std::string_view::npos || !word_starts_at(c, vp)) continue;
          const bool comparative = v == "larger" || v == "bigger" || v == "higher" || v == "longer" || v == "more ";
          if (comparative) {
            // right before the knob: "a larger batch size", "longer max_length", "more num_workers"
            told = vp < kp && kp - vp <= v.size() + 2;
          } else if (v == "chang" || v == "set " || v == "went from" || v == "going from" || v == "go from") {
            const auto r = rise_told(c, std::min(vp, kp));
            told = r.value_or(false);
          } else {
            // "raises"/"raised an" an exception is no rise; a rise told with falling numbers is none
            if (v == "rais" && (c.compare(vp, 6, "raises") == 0 || c.compare(vp, 9, "raised an") == 0 ||
                                c.compare(vp, 8, "raise an") == 0)) continue;
            told = rise_told(c, std::min(vp, kp)).value_or(true) && (vp < kp ? kp - vp <= 40 : vp - kp <= 40);
          }
          if (told) break;
        }
        // No verb, the rise in numbers right after the knob: "batch_size: 16 -> 32 and now it OOMs"
        if (!told) told = rise_told(c, kp).value_or(false) && c.find("->", kp) != std::string_view::npos;
        if (told && once_per_window(last_raised_, k.cause, n)) {
          add(n, FactKind::kStatement, k.cause, 0.35, "a setting raised before the failure: " + shown(raw.substr(0, 160)), 0,
              Told::kAccount);
        }
        if (told) return;
      }
    }
  }

  // Keeps one fact of a kind per cause per 50 lines (a log repeating a line adds nothing more);
  // `last` is that kind's line per cause.
  static bool once_per_window(std::array<int64_t, kCauseCount>& last, OomCause c, int64_t n) {
    int64_t& l = last[static_cast<size_t>(c)];
    if (l > 0 && n - l < 50) return false;
    l = n;
    return true;
  }

  // Host RAM running out, in the user's words, in one clause of a sentence line: the host's memory
  // named ("RAM", "system memory", "host memory", "CPU memory") with a word of it running out or the
  // process dying ("It used over 12G RAM and crashed", "the RAM usage hit the peak and the runtime
  // got restarted", "12.7GB of system memory ... crashes"). Not in a clause naming the GPU's memory
  // ("GPU RAM", "VRAM", "GPUs' RAM", "graphics") or holding "cuda", a clause that denies or holds
  // '?' (host_ram_told()), nor on a code line or a program's output. Known false positive: "32 GB
  // RAM, and it runs fine until the GPU runs out" (the GPU named without its memory).
  void host_ram_runs_out(std::string_view raw, std::string_view lo, int64_t n) {
    // Cheap gate first (this runs on every line naming memory): the host's memory named at all.
    if (!host_memory_on_line(lo) || code_line(lo) || printed_line(raw, lo)) return;
    const std::vector<std::string_view> cs = clauses(lo);
    for (size_t i = 0; i < cs.size(); ++i) {
      const std::string_view clause = cs[i];
      // (Or the host's memory named, then told short in the next clause by a pronoun: "My computer
      // has 60G RAM but it is still not enough", "I have 32 GB of RAM, but that isn't enough".)
      const bool told_short_next = i + 1 < cs.size() && host_memory_named(clause) && !gpu_memory_named(clause) &&
                                   !gpu_named(clause) && clause.find('?') == std::string_view::npos &&
                                   !gpu_memory_named(cs[i + 1]) && !gpu_named(cs[i + 1]) && short_by_pronoun(cs[i + 1]);
      if ((host_ram_told(clause) || told_short_next) && !zh_not_told_at(clause, 0)) {  // not denied or asked in Chinese (没 ..., 是否 ...)
        if (once_per_window(last_ram_, OomCause::kCpuRam, n)) {
          add(n, FactKind::kStatement, OomCause::kCpuRam, 0.4,
              "host RAM runs out, in the user's words: " + shown(raw.substr(0, 160)), 0, Told::kAccount);
        }
        return;
      }
    }
  }

  // A clause opening with "but" and a pronoun told short: "but it is still not enough", "but that
  // isn't enough", "but it's insufficient"; not asked ("but it's not enough?") nor denied ("but it is
  // not too small").
  static bool short_by_pronoun(std::string_view clause) {
    const std::string_view t = trim_view(clause);
    if (t.find('?') != std::string_view::npos || t.find("not too ") != std::string_view::npos ||
        t.find("n't too ") != std::string_view::npos) {
      return false;
    }
    bool pronoun = false;
    for (std::string_view opener : {"but it ", "but it's ", "but that ", "but that's "}) pronoun = pronoun || t.rfind(opener, 0) == 0;
    return pronoun && contains_any(t, {"not enough", "n't enough", "insufficient", "not sufficient", "too small", "too little"});
  }

  // Host RAM told nearly full in figures: "RAM usage: 15.1 GB / 15.3 GB", "RAM 31.5G of 32G", "used RAM
  // 62/64 GB": the used figure at least 90% of the total (at least 1 GiB), on a line naming RAM as a
  // word and no accelerator's memory ("GPU RAM", "VRAM", "CUDA"). Returns (used, total) in bytes.
  static std::optional<std::pair<int64_t, int64_t>> host_ram_figures_full(std::string_view lo) {
    if (!contains_word(lo, "ram") || contains_any(lo, {"gpu", "vram", "cuda", "graphics", "video"})) return std::nullopt;
    // A number, an optional space and a unit (GB / GiB / G / MB / MiB / TB / TiB), from `p`; `end` past it.
    auto figure = [&](size_t p, size_t& end, bool unit_needed) -> std::optional<double> {
      size_t k = p;
      while (k < lo.size() && (is_digit(lo[k]) || lo[k] == '.')) ++k;
      if (k == p || k - p > 12 || lo[p] == '.') return std::nullopt;
      const double v = std::strtod(std::string(lo.substr(p, k - p)).c_str(), nullptr);
      size_t u = k;
      if (u < lo.size() && lo[u] == ' ') ++u;
      double scale = 0;
      for (const auto& [name, bytes] : std::initializer_list<std::pair<std::string_view, double>>{
               {"gib", 1073741824.0}, {"gb", 1e9}, {"mib", 1048576.0}, {"mb", 1e6}, {"tib", 1099511627776.0},
               {"tb", 1e12}, {"g", 1e9}}) {
        if (lo.compare(u, name.size(), name) == 0 && (u + name.size() >= lo.size() || !is_alpha(lo[u + name.size()]))) {
          scale = bytes;
          end = u + name.size();
          break;
        }
      }
      if (scale == 0) {
        if (unit_needed) return std::nullopt;
        end = k;
        return -v;  // no unit: the total's unit applies ("62/64 GB")
      }
      return v * scale;
    };
    for (size_t p = 0; p < lo.size(); ++p) {
      if (!is_digit(lo[p]) || (p > 0 && (is_digit(lo[p - 1]) || lo[p - 1] == '.' || is_alpha(lo[p - 1])))) continue;
      size_t e = p;
      const auto used = figure(p, e, false);
      if (!used) continue;
      size_t k = e;
      while (k < lo.size() && lo[k] == ' ') ++k;
      if (lo.compare(k, 1, "/") == 0) ++k;
      else if (lo.compare(k, 3, "of ") == 0) k += 3;
      else if (lo.compare(k, 7, "out of ") == 0) k += 7;
      else continue;
      while (k < lo.size() && lo[k] == ' ') ++k;
      size_t e2 = k;
      const auto total = k < lo.size() && is_digit(lo[k]) ? figure(k, e2, true) : std::nullopt;
      if (!total || *total < 1073741824.0) continue;
      const double u = *used < 0 ? -*used * (*total / std::strtod(std::string(lo.substr(k, e2 - k)).c_str(), nullptr))
                                 : *used;
      if (u >= 0.9 * *total && u <= *total * 1.001) {
        return std::make_pair(static_cast<int64_t>(u), static_cast<int64_t>(*total));
      }
    }
    return std::nullopt;
  }

  // Memory reserved but unallocated, told as large (an observation) within 30 characters before or
  // 40 after the phrase, without a denial or "small" there (the line's other clauses may deny other
  // things: "... was high at this point, ... the cache wasn't cleared"). Not asked about, quoted
  // from the docs, or PyTorch's own advice ("If reserved but unallocated memory is large try
  // setting ...").
  static bool reserved_unallocated_told(std::string_view lo) {
    if (lo.find('?') != std::string_view::npos) return false;
    for (std::string_view quote : {"if reserved", "try setting", "means", "docs", "documentation", "according", "says",
                                   "said", "suggest"}) {
      if (lo.find(quote) != std::string_view::npos) return false;
    }
    for (std::string_view ph : {"reserved but unallocated", "reserved-but-unallocated", "reserved and unallocated",
                                "unallocated reserved", "reserved but not allocated"}) {
      const size_t p = lo.find(ph);
      if (p == std::string_view::npos) continue;
      const size_t from = p > 30 ? p - 30 : 0;
      const std::string_view before = lo.substr(from, p - from);
      const std::string_view after = lo.substr(p + ph.size(), 40);
      auto near = [&](std::string_view x) {
        return before.find(x) != std::string_view::npos || after.find(x) != std::string_view::npos;
      };
      for (std::string_view neg : {" not ", "n't ", " no ", "never ", "only", "small", "negligible", "tiny", "little", "low"}) {
        if (near(neg)) return false;
      }
      for (std::string_view large : {"high", "large", "huge", "a lot", "much", "big", "grow", "increas", "spike", "most",
                                     "gib", "gb"}) {
        if (near(large)) return true;
      }
      return false;
    }
    return false;
  }

  // "use_cache" set false on the line: use_cache=False, "use_cache": False, use_cache: false.
  static bool use_cache_off(std::string_view lo) {
    for (size_t p = lo.find("use_cache"); p != std::string_view::npos; p = lo.find("use_cache", p + 9)) {
      size_t k = p + 9;
      while (k < lo.size() && (lo[k] == ' ' || lo[k] == '"' || lo[k] == '\'' || lo[k] == '=' || lo[k] == ':')) ++k;
      if (lo.compare(k, 5, "false") == 0) return true;
    }
    return false;
  }

  // An allocator's arena (see its caller) named as a word ("arena", "arenas", "BFCArena", "BFC
  // arena"; not a project's or a benchmark's name such as "pdearena", "Arena-Hard") with what it
  // keeps or cannot give back on the line: its blocks or chunks, freeing them ("no logic to free
  // those", "no way to free", "never frees", "the chunks it freed can't be merged"), fragments,
  // packing, shrinking, reuse. Not a fixed arena that is simply too small (TFLite Micro's tensor
  // arena, "arena size"), not denied ("it's not fragmentation in the BFC arena").
  static bool arena_keeps_blocks(std::string_view lo) {
    const bool arena = contains_word(lo, "arena") || contains_word(lo, "arenas") || lo.find("bfcarena") != std::string_view::npos;
    if (!arena) return false;
    // Not an allocator's arena kept full: a fixed arena too small, a benchmark, a game's arena.
    if (contains_any(lo, {"tensor arena", "tensor_arena", "arena size", "arena_size", "too small", "arena-hard", "arena hard",
                          "chatbot arena", "free-for-all"})) {
      return false;
    }
    // Denied ("it's not fragmentation in the BFC arena"); "can't be merged", "cannot free" tell the
    // trouble itself.
    const bool trouble_told = contains_any(lo, {"can't be", "cannot be", "can't free", "cannot free", "couldn't free",
                                                "can't reuse", "cannot reuse", "no logic to free", "no way to free"});
    if (contains_any(lo, {"not fragment", "n't fragment"}) ||
        (!trouble_told && (contains_word(lo, "not") || lo.find("n't") != std::string_view::npos ||
                           lo.find("no longer") != std::string_view::npos))) {
      return false;
    }
    return contains_word(lo, "blocks") || contains_word(lo, "chunks") || contains_word_start(lo, "fragment") ||
           contains_word(lo, "pack") || contains_word(lo, "reuse") || contains_word(lo, "freed") ||
           contains_word(lo, "shrinks") || contains_word(lo, "shrink") || contains_word(lo, "merged") ||
           contains_any(lo, {"to free", "never frees", "doesn't free", "does not free", "can't free", "cannot free"});
  }

  // The dataset cached in memory (see its caller): a `.cache()` call on a dataset ("data.cache()",
  // "train_ds.cache()", "dataset = dataset.cache()": the name before the call holds "data" or "ds"
  // as a part), or caching said of the dataset or its splits with the memory named ("cache the whole
  // dataset in memory", "it will cache both the train_data and the validation_data, ... my memory is
  // exhausted"). Not a cache to a file or disk ("cache(filename)", "~/.cache/huggingface"), the
  // KV or generation cache, the allocator's cache or a model cache, nor denied ("I'm not using
  // .cache()", "without caching the dataset").
  static bool dataset_cached_in_memory(std::string_view lo) {
    if (contains_any(lo, {"kv cache", "kv_cache", "past_key_values", "use_cache", "cache_dir", ".cache/", "huggingface",
                          "to disk", "on disk", "cuda cache", "empty_cache", "caching allocator", "cached memory",
                          "model cache", "hf_home", "not using", "not use", "n't use", "without cach", "no cach",
                          "not cach", "n't cach"})) {
      return false;
    }
    for (size_t p = lo.find(".cache()"); p != std::string_view::npos; p = lo.find(".cache()", p + 1)) {
      size_t q = p;
      while (q > 0 && (is_alpha(lo[q - 1]) || is_digit(lo[q - 1]) || lo[q - 1] == '_')) --q;
      // The name's parts split at '_': "train_ds", "ds_train", "val_dataset", "data".
      const std::string_view name = lo.substr(q, p - q);
      for (size_t from = 0; from <= name.size();) {
        size_t to = name.find('_', from);
        if (to == std::string_view::npos) to = name.size();
        const std::string_view part = name.substr(from, to - from);
        if (part == "ds" || part.find("data") != std::string_view::npos) return true;
        from = to + 1;
      }
    }
    const bool caching = contains_word(lo, "cache") || contains_word(lo, "caches") || contains_word(lo, "caching") ||
                         contains_word(lo, "cached");
    const bool splits = contains_word_start(lo, "dataset") || contains_word(lo, "train_data") ||
                        contains_word(lo, "validation_data") || contains_word(lo, "training_data");
    return caching && splits && (contains_word(lo, "memory") || contains_word(lo, "ram"));
  }

  // An accelerator's memory running out, told (see process_killed_told()): an OOM phrase ("out of
  // memory", "ran / runs / run out", "OOM" as a word, not the OOM killer's name) with an
  // accelerator within 40 characters before or after it (accelerator_near()).
  static bool accelerator_oom_told(std::string_view lo) {
    for (std::string_view oom : {"out of memory", "out-of-memory", "ran out", "runs out", "run out", "oom"}) {
      for (size_t p = lo.find(oom); p != std::string_view::npos; p = lo.find(oom, p + 1)) {
        if (oom == "oom" && !is_word_at(lo, p, 3)) continue;
        const std::string_view after = lo.substr(p + oom.size(), 8);
        if (after.rfind(" killer", 0) == 0 || after.rfind("-killer", 0) == 0 || after.rfind("_killer", 0) == 0) continue;
        if (accelerator_near(lo, p, oom.size())) return true;
      }
    }
    return false;
  }

  // A process killed, told in the passive: "killed" as a word after gets / got / get / getting /
  // was / were / is / are / been / being ("the process gets killed", "it was killed in step800+"),
  // not denied right before it ("wasn't killed", "is not killed"), not a DataLoader worker's bus
  // error (its shared memory, which the parser reads). Not "I killed the other process".
  // "hardcoded" (or "hardcodes", "hard-coded", "hard coded") with a size in GB / GiB / MB starting
  // within 14 characters after it, or a pool, cache limit, reservation, arena or workspace within 24;
  // in a clause that does not ask and names no batch, length or tokens; not "not hardcoded", nor
  // the user's "I / we hardcoded".
  static bool hardcoded_memory_size(std::string_view lo) {
    for (std::string_view h : {"hardcode", "hard-code", "hard code"}) {  // "hardcoded", "hardcodes"
      for (size_t p = lo.find(h); p != std::string_view::npos; p = lo.find(h, p + 1)) {
        const std::string_view clause = clause_at(lo, p);
        // (Its own "not device-scaled" is no denial: only a question, "not hardcoded" or "no longer
        // hardcoded" undoes it.) Nor a batch's, a length's or tokens' count hard-coded: those are
        // the batch's and the input's.
        // Nor the user's own hard-coding ("I hardcoded CUDA_VISIBLE_DEVICES=0 on my 24GB 3090").
        const std::string_view before = lo.substr(p >= 12 ? p - 12 : 0, p >= 12 ? 12 : p);
        if (asks(clause) || contains_any(clause, {"batch", "seq_len", "max_len", "length", "tokens"}) ||
            contains_any(before, {"not ", "n't ", "no longer ", "never ", "no "}) ||
            (before.size() >= 2 && before.substr(before.size() - 2) == "i ") ||
            (before.size() >= 3 && before.substr(before.size() - 3) == "we ")) {
          continue;
        }
        size_t end = p + h.size();
        while (end < lo.size() && is_alpha(lo[end])) ++end;  // its "d" or "s"
        // The size or the memory's noun right after it ("hardcoded 32GB pool", "hardcoded to 4 GB",
        // "a hard-coded 8 GiB workspace", "hardcoded mx.set_cache_limit(32GB)").
        const std::string_view after = lo.substr(end, 24);
        for (std::string_view noun : {"pool", "pools", "cache limit", "cache_limit", "reservation", "arena", "workspace"}) {
          const size_t q = after.find(noun);
          // A whole word, or the end of a setter's name ("set_cache_limit(32GB)").
          const bool starts = word_starts_at(after, q) || (q != std::string_view::npos && q > 0 && after[q - 1] == '_');
          if (q != std::string_view::npos && starts && (q + noun.size() >= after.size() || !is_alpha(after[q + noun.size()]))) {
            return true;
          }
        }
        for (size_t d = 0; d < after.size() && d < 14; ++d) {
          if (!is_digit(after[d])) continue;
          size_t e = d;
          while (e < after.size() && (is_digit(after[e]) || after[e] == '.')) ++e;
          while (e < after.size() && after[e] == ' ') ++e;
          for (std::string_view u : {"gb", "gib", "mb", "mib", "tb"}) {
            if (after.compare(e, u.size(), u) == 0) return true;
          }
          d = e;
        }
      }
    }
    return false;
  }

  // The KV cache named with a word of allocation ("allocat", "sizes", "reserves") within 40
  // characters either side in its clause, a clause that neither denies nor asks nor tells it works.
  static bool kv_cache_allocation_told(std::string_view lo) {
    for (std::string_view kv : {"kv cache", "kv-cache", "kv_cache"}) {
      for (size_t p = lo.find(kv); p != std::string_view::npos; p = lo.find(kv, p + 1)) {
        const std::string_view clause = clause_at(lo, p);
        // Told to work ("the allocation of the KV cache succeeds, but then ...") is no failure of it;
        // an engine's pre-allocation explained ("vLLM pre-allocates the KV cache, so nvidia-smi shows
        // 90% used") is its design, not this failure.
        if (denied_or_asked(clause) || contains_any(clause, {"succeed", "success", "works", "worked", "fine", "pre-allocat",
                                                             "preallocat"})) {
          continue;
        }
        const size_t at = p - static_cast<size_t>(clause.data() - lo.data());  // p within its clause
        const size_t from = at > 40 ? at - 40 : 0;
        const std::string_view near = clause.substr(from, at - from + kv.size() + 40);
        if (near.find("allocat") != std::string_view::npos || near.find(" sizes the") != std::string_view::npos ||
            near.find("reserves") != std::string_view::npos) {
          return true;
        }
      }
    }
    return false;
  }

  // earlier_model_still_held(): on one line, a model told still loaded or to be unloaded ("is loaded
  // into memory", "still loaded", "unload it"), the next run told ("train again", "retrain", "a new
  // one", "another model"), in a notebook or a session ("cell", "notebook", "kernel", "runtime",
  // "session", "colab", "jupyter"); not asked how ("how do I unload ...?").
  static bool earlier_model_still_held(std::string_view lo) {
    if (!contains_any(lo, {"unload", "still loaded", "still in memory", "loaded into memory", "loaded in memory",
                           "already loaded", "still holds the model"})) {
      return false;
    }
    if (!contains_any(lo, {"again", "retrain", "re-train", "new one", "next one", "another model", "second model", "next model",
                           "the next run", "training the next"})) {
      return false;
    }
    if (!contains_any(lo, {"cell", "notebook", "kernel", "runtime", "session", "colab", "jupyter"})) return false;
    return lo.find('?') == std::string_view::npos;
  }

  static bool process_killed_told(std::string_view lo) {
    // Not a kill with another cause told: by the user, a scheduler's time limit, a quota, other users.
    for (std::string_view other : {"bus error", "by me", "i killed", "we killed", "manually", "kill -", "ctrl", "walltime",
                                   "wall time", "time limit", "timeout", "timed out", "quota", "other user", "preempt",
                                   "not killed", "n't killed", "never killed"}) {
      if (lo.find(other) != std::string_view::npos) return false;
    }
    // Killed for an accelerator's memory, the accelerator named within 40 characters of the OOM
    // ("the training task on the Ascend NPU was killed due to out of memory", "killed because the
    // GPU ran out of memory"): the device's OOM told as a kill, which says nothing of the host's
    // RAM. Not the host's own killer ("killed by the OOM killer; the GPU has 80GB free").
    if (accelerator_oom_told(lo)) return false;
    // Told, not asked whether: the clause holding the kill does not ask, or asks why ("Why does the
    // OS kill the process?" presupposes the kill).
    auto told_at = [&](size_t p) { return !asked_at(lo, p) || contains_word(clause_at(lo, p), "why"); };
    // The killer named, in the active voice: the OS, the system, the kernel, Linux or macOS before a
    // form of "kill" in its clause, within 40 characters ("the OS kills the process", "Linux killed my
    // script", "the system end it by killing the process because of OOM"; not "the OS never kills
    // it": denied above by the caller's negation); the bare infinitive only asked why ("why does the
    // OS kill the process?").
    for (size_t p = lo.find("kill"); p != std::string_view::npos; p = lo.find("kill", p + 4)) {
      size_t e = p + 4;
      while (e < lo.size() && is_alpha(lo[e])) ++e;
      const std::string_view verb = lo.substr(p, e - p);
      if (!word_starts_at(lo, p) || !in_list(verb, {"kill", "kills", "killed", "killing"}) || !told_at(p)) continue;
      std::string_view before = lo.substr(p >= 40 ? p - 40 : 0, p >= 40 ? 40 : p);
      for (std::string_view stop : {". ", ", ", "; ", "? ", "! "}) {
        if (const size_t s = before.rfind(stop); s != std::string_view::npos) before.remove_prefix(s + stop.size());
      }
      if (!contains_word(before, "os") && !contains_word(before, "system") && !contains_word(before, "kernel") &&
          !contains_word(before, "linux") && !contains_word(before, "macos")) {
        continue;
      }
      // (Not denied between the killer and the kill: "the kernel is not killing it"; nor prevented,
      // supposed or checked: "to prevent the OS from killing the job", "if the kernel had killed it",
      // "I checked whether the OS was killing it"; nor a compute kernel, "the attention kernel is
      // killing my GPU memory", nor the memory or speed as what is "killed".)
      if (contains_any(before, {"not ", "n't", "never", "prevent", "avoid", "stop ", "whether", "if ", "had "})) continue;
      if (contains_any(before, {"cuda kernel", "attention kernel", "triton kernel", "gpu kernel", "custom kernel",
                                "compute kernel"})) {
        continue;
      }
      if (contains_any(lo.substr(e, 24), {"memory", "performance", "speed", "throughput", "vram"})) continue;
      if (verb == "kill" && !contains_word(clause_at(lo, p), "why")) continue;
      return true;
    }
    for (size_t p = lo.find("killed"); p != std::string_view::npos; p = lo.find("killed", p + 6)) {
      if (!is_word_at(lo, p, 6) || p == 0 || !told_at(p) || kill_not_the_failure(lo, p)) continue;
      size_t e = p;
      while (e > 0 && lo[e - 1] == ' ') --e;
      size_t b = e;
      while (b > 0 && (is_alpha(lo[b - 1]) || lo[b - 1] == '\'')) --b;
      const std::string_view aux = lo.substr(b, e - b);
      for (std::string_view a : {"gets", "got", "get", "getting", "was", "were", "is", "are", "been", "being"}) {
        if (aux == a) {
          size_t q = b;
          while (q > 0 && lo[q - 1] == ' ') --q;
          size_t w = q;
          while (w > 0 && (is_alpha(lo[w - 1]) || lo[w - 1] == '\'')) --w;
          const std::string_view before = lo.substr(w, q - w);
          if (before == "not" || before == "never" || (before.size() > 3 && before.substr(before.size() - 3) == "n't")) return false;
          return true;
        }
      }
    }
    return false;
  }

  // The host's memory told low, fine or normal on the lower-cased line `lo` ("the memory and the GPU
  // memory usage is low", "RAM usage looks fine"), not only the GPU's ("GPU memory usage is fine": the
  // words before the phrase in its clause name the GPU and no host memory), and no growth, spike or
  // full memory told on the line ("normal during training, then it spikes", "RSS grows to the
  // limit", "host RAM hits 100%").
  static bool host_memory_told_low(std::string_view lo) {
    static constexpr std::string_view kLow[] = {
        "usage is low", "usage was low", "usage is very low", "usage was very low", "usage is fine", "usage was fine",
        "usage is normal", "usage was normal", "usage looks fine", "usage looked fine", "usage looks normal",
        "memory is not full", "memory was not full", "plenty of free memory", "plenty of memory left"};
    for (std::string_view grows : {"spike", "grow", "increas", "climb", "full", "100%", "oomkilled", "rss", " hits ",
                                   "exceed", "reach"}) {
      if (grows == "full" ? (lo.find("full") != std::string_view::npos && lo.find("not full") == std::string_view::npos)
                          : lo.find(grows) != std::string_view::npos) {
        return false;
      }
    }
    for (std::string_view low : kLow) {
      const size_t p = lo.find(low);
      if (p == std::string_view::npos) continue;
      // The clause before the phrase: back to a sentence's end or a comma.
      size_t b = p;
      while (b > 0 && lo[b - 1] != '.' && lo[b - 1] != ',' && lo[b - 1] != ';') --b;
      const std::string_view clause = lo.substr(b, p + low.size() - b);
      bool host = contains_word(clause, "ram") || clause.find("host") != std::string_view::npos ||
                  clause.find("system") != std::string_view::npos || clause.find("cpu") != std::string_view::npos;
      // "memory" not right after a GPU word ("the memory and the GPU memory usage is low": the first is the host's).
      for (size_t m = clause.find("memory"); !host && m != std::string_view::npos; m = clause.find("memory", m + 6)) {
        const std::string_view before = clause.substr(m >= 5 ? m - 5 : 0, m >= 5 ? 5 : m);
        if (before.find("gpu") == std::string_view::npos && before.find("vram") == std::string_view::npos &&
            before.find("cuda") == std::string_view::npos && before.find("\xe6\x98\xbe") == std::string_view::npos) {
          host = true;
        }
      }
      if (host) return true;
    }
    return false;
  }

  // Flash attention named on the lower-cased line `lo` as not in use: "didn't set", "not set",
  // "without", "not supported", "not installed", "disabled", "can't use" within 40 characters before
  // or after its name; not where it is told to be in use as the fix ("with flash attention it fits").
  static bool flash_attention_not_used(std::string_view lo) {
    // Another memory-efficient attention in its place (SDPA's kernels, xformers) keeps no (T, T)
    // scores either.
    if (contains_any(lo, {"sdpa", "xformers", "mem-efficient", "mem_efficient", "memory-efficient", "memory efficient",
                          "scaled_dot_product"})) {
      return false;
    }
    for (std::string_view name : {"flash attention", "flashattention", "flash_attention", "flash-attn", "flash_attn"}) {
      for (size_t p = lo.find(name); p != std::string_view::npos; p = lo.find(name, p + 1)) {
        const size_t from = p > 40 ? p - 40 : 0;
        const std::string_view before = lo.substr(from, p - from);
        const std::string_view after = lo.substr(p + name.size(), 40);
        // ("without flash attention (eager) it actually runs fine": the run without it works.)
        if (contains_any(lo.substr(p + name.size(), 60), {"runs fine", "run fine", "works", "worked", "fits", "no oom"})) continue;
        if (contains_any(before, {"didn't set", "did not set", "not set", "without", "can't use", "cannot use", "couldn't use",
                                  "doesn't support", "does not support", "no flash"}) ||
            contains_any(after, {"not set", "not supported", "isn't supported", "unsupported", "not installed",
                                 "isn't installed", "disabled", "not available"})) {
          return true;
        }
      }
    }
    return false;
  }

  // "after [running / processing / ...] [about] N <inputs>" on the lower-cased line `lo`, N at least
  // 10, the inputs sequences, images, samples, files, requests, documents, prompts, videos or items;
  // not where one input is singled out ("then the 21st file, 3 hours long, fails": that input's size).
  static bool failed_after_items(std::string_view lo) {
    for (std::string_view one : {"st file", "nd file", "rd file", "th file", "st image", "nd image", "rd image", "th image",
                                 "st video", "nd video", "rd video", "th video", "one file", "one image", "one video",
                                 " long", "larger", "bigger"}) {
      if (lo.find(one) != std::string_view::npos) return false;
    }
    for (size_t p = lo.find("after "); p != std::string_view::npos; p = lo.find("after ", p + 6)) {
      if (!word_starts_at(lo, p)) continue;
      size_t q = p + 6;
      for (std::string_view verb : {"running ", "processing ", "encoding ", "predicting ", "generating ", "inferring ",
                                    "handling ", "serving "}) {
        if (lo.compare(q, verb.size(), verb) == 0) {
          q += verb.size();
          break;
        }
      }
      for (std::string_view about : {"about ", "around ", "roughly ", "~", "over ", "more than "}) {
        if (lo.compare(q, about.size(), about) == 0) {
          q += about.size();
          break;
        }
      }
      size_t e = q;
      while (e < lo.size() && (is_digit(lo[e]) || lo[e] == ',')) ++e;
      if (e < lo.size() && lo[e] == '+') ++e;  // "100+ sequences"
      if (e == q || e - q > 8 || e >= lo.size() || lo[e] != ' ') continue;
      std::string digits;
      for (size_t i = q; i < e; ++i) {
        if (is_digit(lo[i])) digits += lo[i];
      }
      if (digits.empty() || std::stoll(digits) < 10) continue;
      const std::string_view unit = lo.substr(e + 1, 12);
      for (std::string_view u : {"sequence", "image", "sample", "file", "request", "document", "prompt", "video", "item",
                                 "picture", "sentence", "molecule", "protein"}) {
        if (unit.rfind(u, 0) == 0) return true;
      }
    }
    return false;
  }

  // A quantization told done before what fails on the lower-cased line `lo`: "after quantizing",
  // "once quantized", or generation on the line (generate(, max_new_tokens, inference).
  // Whether the value after a flag's name at `at` sets it off: "--load_in_8bit False", "load_in_4bit=false",
  // "export_quantization_bit: null", "= None", "0", "no" (quotes and separators skipped). `lo` lowercased.
  static bool flag_set_off(std::string_view lo, size_t at) {
    while (at < lo.size() && (lo[at] == ' ' || lo[at] == '=' || lo[at] == ':' || lo[at] == '"' || lo[at] == '\'')) ++at;
    size_t e = at;
    while (e < lo.size() && (is_alpha(lo[e]) || is_digit(lo[e]))) ++e;
    const std::string_view v = lo.substr(at, e - at);
    return v == "false" || v == "none" || v == "null" || v == "0" || v == "no";
  }

  static bool quantized_then_run(std::string_view lo) {
    return contains_any(lo, {"after quantiz", "once quantiz", "quantized model", "generate(", "max_new_tokens", "inference",
                             "generating", "generation"});
  }

  // A job's memory limit exceeded in the user's words, on the lower-cased line `lo`: the limit named the
  // memory's ("exceeded this / the / its / their memory limit", "memory limit exceeded") on a line
  // naming a job, a requested amount, a scheduler or a container, no GPU named; not asked or supposed.
  static bool job_memory_limit_exceeded(std::string_view lo) {
    if (!contains_any(lo, {"exceeded this memory limit", "exceeded the memory limit", "exceeded its memory limit",
                           "exceeds the memory limit", "exceeds its memory limit", "exceeded their memory limit",
                           "exceeded my memory limit", "memory limit exceeded", "exceeded memory limit"})) {
      return false;
    }
    if (!contains_any(lo, {"job", "requested", "slurm", "--mem", "cgroup", "container", "pod ", "pod's", "docker",
                           "kubernetes", "k8s", "sbatch", "cluster"})) {
      return false;
    }
    // (A GPU named far from the limit, "... before moving it to the GPU", is where the work was going.)
    const size_t at = lo.find("memory limit");
    const std::string_view near = lo.substr(at >= 30 ? at - 30 : 0, 72);
    return !gpu_memory_named(near) && !gpu_named(near) && lo.find('?') == std::string_view::npos && !contains_word(lo, "if");
  }

  // The input told growing as the condition of the memory's growth, on the lower-cased line `lo`: in
  // one sentence, not asked, that names the memory ("memory", "VRAM", "RAM"), "when / as / while /
  // whenever" as a word, then an input's length or size after it and a word of its growth right
  // after that ("When the length of the input increases, the GPU memory consumption grows", "as the
  // sequence length grows", "as inputs get longer"), or "the longer the input / sequence / context /
  // prompt".
  static bool growth_follows_input(std::string_view lo) {
    for (std::string_view t : sentences(lo)) {
      if (t.find('?') != std::string_view::npos || !(contains_word_start(t, "memory") || contains_word(t, "vram") ||
                                                     contains_word(t, "ram"))) {
        continue;
      }
      if (contains_any(t, {"the longer the input", "the longer the sequence", "the longer the context",
                           "the longer the prompt", "the larger the input", "the bigger the input"})) {
        return true;
      }
      size_t conj = std::string_view::npos;
      for (std::string_view w : {"when", "as", "while", "whenever"}) {
        for (size_t p = t.find(w); p != std::string_view::npos; p = t.find(w, p + 1)) {
          if (is_word_at(t, p, w.size())) {
            conj = std::min(conj, p);
            break;
          }
        }
      }
      if (conj == std::string_view::npos) continue;
      for (std::string_view noun : {"length of the input", "length of input", "input length", "input size",
                                    "size of the input", "sequence length", "context length", "seq len", "seq_len",
                                    "number of tokens", "prompt length", "resolution", "image size", "inputs",
                                    "input", "sequences", "prompts"}) {
        for (size_t p = t.find(noun, conj); p != std::string_view::npos; p = t.find(noun, p + 1)) {
          if (!is_word_at(t, p, noun.size())) continue;
          std::string_view rest = t.substr(p + noun.size());
          while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
          for (std::string_view g : {"increase", "grow", "get longer", "gets longer", "get larger", "gets larger",
                                     "become longer", "becomes longer", "goes up", "go up", "rise"}) {
            if (rest.substr(0, g.size()) == g) return true;
          }
        }
      }
    }
    return false;
  }

  // Swap told as configured: "swap area / space / file / partition", "N GB (of) swap", "swap of N".
  static bool swap_configured(std::string_view lo) {
    if (contains_any(lo, {"swap area", "swap space", "swap file", "swapfile", "swap partition", "swap size", "swap of "})) {
      return true;
    }
    for (size_t p = lo.find("swap"); p != std::string_view::npos; p = lo.find("swap", p + 1)) {
      // "16gb swap", "16 gb of swap", "8g swap"
      std::string_view before = lo.substr(0, p);
      while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
      if (before.size() >= 3 && before.substr(before.size() - 3) == " of") before.remove_suffix(3);
      while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
      for (std::string_view u : {"gb", "gib", "g", "mb", "tb"}) {
        if (before.size() > u.size() && before.substr(before.size() - u.size()) == u) {
          std::string_view num = before.substr(0, before.size() - u.size());
          while (!num.empty() && num.back() == ' ') num.remove_suffix(1);
          // (Not "0 GB swap": none set up.)
          if (!num.empty() && is_digit(num.back()) &&
              !(num.back() == '0' && (num.size() == 1 || !(is_digit(num[num.size() - 2]) || num[num.size() - 2] == '.')))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  // The model made smaller on the lower-cased line `lo`: the backbone reduced, changed or switched to
  // another ("reduce the batch size to 1 and the backbone to ResNet50"), a smaller or lighter
  // backbone, encoder, model or variant told used; with the failure told going on in that sentence
  // or the next ("still runs out", "still consumes", "despite", "even with"; not any "still"); neither
  // sentence asked ('?') nor supposed ("if"), none naming a larger model ("switched the backbone to a
  // larger ResNet-152") or the smaller one working (success_told(), "fixed", "fine": "a smaller
  // backbone fixed it" points at the weights).
  static bool model_made_smaller_yet_fails(std::string_view lo) {
    const std::vector<std::string_view> sens = sentences(lo);
    // (Whole words: "networks", "fine-tuning", "benefits", "fixed-size" tell no success.)
    auto plain = [](std::string_view t) {
      return t.find('?') == std::string_view::npos && !contains_word(t, "if") && !success_told(t) &&
             !contains_any(t, {"larger", "bigger", "no problem"}) && !contains_word(t, "works") && !contains_word(t, "worked") &&
             !contains_word(t, "fits") && !contains_word(t, "fixed") && !contains_word(t, "solved");
    };
    // (The failure itself going on, not any "still": "I still want to use ViT-H" is none.)
    auto goes_on = [](std::string_view t) {
      return contains_word(t, "despite") || t.find("even with") != std::string_view::npos ||
             contains_any(t, {"still oom", "still fail", "still run", "still get", "still hit", "still crash", "still out of",
                              "still consum", "still use", "still take", "still need", "still not enough", "still insufficient",
                              "still exceed", "still goes out", "still went out"});
    };
    for (size_t i = 0; i < sens.size(); ++i) {
      const std::string_view sen = sens[i];
      if (!plain(sen)) continue;
      const bool on = goes_on(sen) || (i + 1 < sens.size() && plain(sens[i + 1]) && goes_on(sens[i + 1]));
      for (std::string_view told : {"backbone to", "smaller backbone", "lighter backbone", "smaller encoder", "lighter encoder",
                                    "smaller model", "smallest model", "tiny model", "smaller variant", "tiny variant"}) {
        const size_t p = sen.find(told);
        if (!on || p == std::string_view::npos) continue;
        const std::string_view before = sen.substr(p >= 40 ? p - 40 : 0, p >= 40 ? 40 : p);
        if (told == "backbone to" &&
            !contains_any(before, {"reduc", "downgrad", "smaller", "lower", "shrink", "shrank", "chang", "switch", "replac"})) {
          continue;
        }
        return true;
      }
    }
    return false;
  }

  // A second copy of a program named on the lower-cased line `lo`: a count ("another", "second",
  // "multiple", "several", "two" / "2", "three" / "3", "more than 1 / one"; not a version's digit,
  // "22.04.2") right before a copy's word (notebook, instance, kernel, daemon, or their plurals), or
  // one word between that names the program ("2 LLM instances", "another Jupyter kernel", "a second
  // vllm instance"; not a machine's, "two AWS g5 instances", "2 A100 instances", "launched another
  // instance", nor an object's, "a second instance of the model class"); a kernel only where
  // the line names a notebook's (Jupyter, IPython, notebook, Colab, Kaggle), not a CUDA kernel. Or a
  // copy's word with "a second one" / "another one" after it in its clause ("one notebook works, a
  // second one fails").
  static bool second_copy_named(std::string_view lo) {
    const std::vector<std::string_view> w = alnum_words(lo);
    const bool notebook_kernel = contains_any(lo, {"jupyter", "ipython", "notebook", "colab", "kaggle"});
    const bool cloud_machine = contains_any(lo, {"aws", "ec2", "gcp", "azure", "cloud", "launched", "spun up", "spin up"}) ||
                               contains_word(lo, "vm");
    auto copy_at = [&](size_t k) {
      const std::string_view x = w[k];
      // ("instance segmentation", "instance norm", "multiple instance learning" are terms, no copies;
      // "a second instance of the model class" is an object in one program; a cloud machine's instance
      // is one more machine: "I launched another instance with a bigger GPU".)
      if (in_list(x, {"instance", "instances"}) &&
          ((k + 1 < w.size() && in_list(w[k + 1], {"segmentation", "seg", "norm", "normalization", "learning", "level",
                                                     "discrimination", "of", "with", "type"})) ||
           cloud_machine)) {
        return false;
      }
      return in_list(x, {"notebook", "notebooks", "instance", "instances", "daemon", "daemons"}) ||
             (notebook_kernel && in_list(x, {"kernel", "kernels"}));
    };
    auto program = [](std::string_view x) {
      return in_list(x, {"llm", "vllm", "model", "python", "jupyter", "ipython", "colab", "kaggle", "ollama", "server", "inference",
                         "training", "script", "app", "program", "tgi", "sglang", "comfyui", "webui", "notebook"});
    };
    for (size_t i = 0; i < w.size(); ++i) {
      const size_t at = static_cast<size_t>(w[i].data() - lo.data());
      const bool version_digit = at > 0 && lo[at - 1] == '.';
      size_t after = i + 1;
      bool count = in_list(w[i], {"another", "second", "multiple", "several", "two", "three"}) ||
                   (!version_digit && in_list(w[i], {"2", "3"}));
      if (w[i] == "more" && i + 2 < w.size() && w[i + 1] == "than" && (w[i + 2] == "1" || w[i + 2] == "one")) {
        count = true;
        after = i + 3;
      }
      if (count && after < w.size() && (copy_at(after) || (after + 1 < w.size() && program(w[after]) && copy_at(after + 1)))) {
        return true;
      }
      if (copy_at(i)) {
        const std::string_view rest = clause_at(lo, at);
        const size_t from = at - static_cast<size_t>(rest.data() - lo.data());
        const std::string_view tail = rest.substr(std::min(from, rest.size()));
        if (tail.find("a second one") != std::string_view::npos || tail.find("another one") != std::string_view::npos) return true;
      }
    }
    return false;
  }

  // The words that open `text`, up to `n` of them: runs of letters, digits, '_' and '-' with one space
  // between; a word followed by anything else is the last ("the camera, with" gives "the", "camera").
  // Views into `text`.
  static std::vector<std::string_view> leading_words(std::string_view text, int n) {
    std::vector<std::string_view> out;
    while (static_cast<int>(out.size()) < n && !text.empty()) {
      size_t e = 0;
      while (e < text.size() && (is_alpha(text[e]) || is_digit(text[e]) || text[e] == '_' || text[e] == '-')) ++e;
      if (e == 0) break;
      out.push_back(text.substr(0, e));
      if (e >= text.size() || text[e] != ' ') break;
      text.remove_prefix(e + 1);
    }
    return out;
  }

  // The object of "calibration of ..." (up to "on", "with", "using", "for", "in", ',' or '.') names a
  // sensor, an image or a classifier's scores, whole words: "Hyperspectral Image", "the camera", "the
  // IMU", "predicted probabilities"; not a model ("Qwen3-8B on the pile dataset").
  static bool calibrated_thing_not_model(std::string_view rest) {
    static constexpr std::string_view kThings[] = {"image", "images", "camera", "cameras", "sensor", "sensors", "hyperspectral",
                                                   "spectral", "spectrometer", "lidar", "imu", "color", "colour",
                                                   "probability", "probabilities", "confidence", "scores", "classifier",
                                                   "thermometer", "gyroscope", "accelerometer", "radar", "microscope"};
    for (std::string_view word : leading_words(rest, 6)) {
      if (word == "on" || word == "with" || word == "using" || word == "for" || word == "in") return false;
      if (std::find(std::begin(kThings), std::end(kThings), word) != std::end(kThings)) return true;
    }
    return false;
  }

  // The failure's phase told as the data's load: "while / when / during loading (or reading) the
  // dataset", "... the data", "... all the images", "... the training dataset", "... the datasets",
  // or its building ("when building my dataset", "while preprocessing the data": built in the host's
  // memory before any step)
  // (a data noun within its first three words; not the model's: "the dataset's model", "the data
  // parallel checkpoint"): where its words start, or npos.
  static constexpr std::string_view kLoadData[] = {"dataset", "datasets", "data", "images", "files", "csv", "csvs", "features",
                                                   "annotations", "embeddings", "samples", "audio", "videos", "frames",
                                                   "corpus", "recordings", "volumes"};
  static size_t data_load_told(std::string_view lo) {
    const auto& kData = kLoadData;
    static constexpr std::string_view kModel[] = {"model", "models", "checkpoint", "checkpoints", "weights", "parallel",
                                                  "state", "tokenizer"};
    for (std::string_view at : {"while loading ", "when loading ", "during loading ", "while reading ", "when reading ",
                                "during reading ", "in loading ",
                                // the dataset built before any step ("when building my dataset", "while
                                // preprocessing the data", "when tokenizing the corpus")
                                "while building ", "when building ", "during building ", "while preparing ",
                                "when preparing ", "while preprocessing ", "when preprocessing ", "during preprocessing ",
                                "while tokenizing ", "when tokenizing "}) {
      for (size_t p = lo.find(at); p != std::string_view::npos; p = lo.find(at, p + 1)) {
        const std::string_view rest = lo.substr(p + at.size());
        // (Built, not loaded: the dataset or corpus itself, not its embeddings or features, which a
        // model computes, often on the GPU: "while building the embeddings".)
        const bool built = at.find("loading") == std::string_view::npos && at.find("reading") == std::string_view::npos;
        bool data = false;
        for (std::string_view word : leading_words(rest, 4)) {  // its determiner and up to three words
          if (std::find(std::begin(kModel), std::end(kModel), word) != std::end(kModel)) {
            data = false;
            break;
          }
          const size_t e = static_cast<size_t>(word.data() - rest.data()) + word.size();
          const bool possessive = e < rest.size() && rest[e] == '\'';  // "the dataset's model"
          if (!possessive && std::find(std::begin(kData), std::end(kData), word) != std::end(kData) &&
              (!built || word == "dataset" || word == "datasets" || word == "data" || word == "corpus")) {
            data = true;
          }
        }
        if (data) return p;
      }
    }
    return std::string_view::npos;
  }

  // The failure told, in one sentence of `lo`, while the dataset loads (data_load_told(), or the data
  // named in the sentence before and loaded through a pronoun: "... files are 12 - 15 GBs. Loading
  // them ... crashes"): a failure word in the sentence, not asked, denied or supposed, and no GPU
  // named as the load's target ("while loading the data onto the GPU").
  static bool data_load_failure_told(std::string_view lo) {
    // (A sentence's load words are the line's: without them on the line, no sentence is split.)
    auto pronoun_load = [](std::string_view t) {
      for (std::string_view w : {"loading them", "reading them", "loading these", "loading those", "reading these", "reading those"}) {
        if (contains_word(t, w)) return true;
      }
      return false;
    };
    if (data_load_told(lo) == std::string_view::npos && !pronoun_load(lo)) return false;
    const std::vector<std::string_view> sens = sentences(lo);
    for (size_t i = 0; i < sens.size(); ++i) {
      const std::string_view sen = sens[i];
      // The data named in the sentence before, no model's files there, and loaded through a pronoun in
      // this one ("the yuv files are approximately 12 - 15 GBs. Loading them with the Python script
      // provided crashes."; not "the checkpoint files are 12 GB. Loading them ...").
      auto named_in = [&](std::string_view t, const auto& words) {
        return std::any_of(std::begin(words), std::end(words), [&](std::string_view d) { return contains_word(t, d); });
      };
      static constexpr std::string_view kModelFiles[] = {"model", "models", "checkpoint", "checkpoints", "weights", "adapter",
                                                         "adapters", "lora", "tokenizer", "state"};
      const bool data_before = i > 0 && named_in(sens[i - 1], kLoadData) && !named_in(sens[i - 1], kModelFiles);
      const bool through_pronoun = data_before && pronoun_load(sen);
      if (data_load_told(sen) == std::string_view::npos && !through_pronoun) continue;
      const bool short_told = contains_any(sen, {"not enough", "n't enough"});  // the trouble itself, not a denial
      if (sen.find('?') != std::string_view::npos || contains_word(sen, "if") || gpu_named(sen) ||
          (!short_told && contains_any(sen, {"n't", "not "})) ||
          contains_any(sen, {"never", "no problem", "without", "is fine", "was fine", "works fine",
                             "worked fine", "runs fine", "ran fine", "went fine", "goes fine", "cuda", "vram",
                             "onto the device", "to the device"})) {
        continue;
      }
      if (contains_word_start(sen, "oom") ||
          contains_any(sen, {"out of memory", "out-of-memory", "memoryerror", "memory error", "killed", "crash", "runs out",
                             "ran out", "run out", "not enough memory", "all the memory", "all memory", "all the ram",
                             "all ram"})) {
        return true;
      }
    }
    return false;
  }

  // "random" telling when a failure comes ("it OOMs randomly", "at random steps", "random CUDA OOM
  // errors", "it seems random"), not a method's or a data's word ("random features" of ROCKET's
  // random kernels, "random crop", "random seed", "a random forest").
  static bool random_failure_told(std::string_view lo) {
    // A cue word ending just before `at`, at a word's start ("is random", not "this random").
    auto word_before = [&](size_t at, std::string_view w) {
      return at >= w.size() && lo.compare(at - w.size(), w.size(), w) == 0 &&
             (at == w.size() || !(is_alpha(lo[at - w.size() - 1]) || is_digit(lo[at - w.size() - 1])));
    };
    for (size_t p = lo.find("random"); p != std::string_view::npos; p = lo.find("random", p + 1)) {
      if (p > 0 && (is_alpha(lo[p - 1]) || is_digit(lo[p - 1]) || lo[p - 1] == '_' || lo[p - 1] == '.')) {
        continue;  // "pseudorandom", "np.random", "torch.random"
      }
      std::string_view after = lo.substr(p + 6);
      // "randomly", not of a method's or a data's making ("randomly initialized", "randomly sampled crops").
      if (after.substr(0, 2) == "ly") {
        const std::string_view next = trim_view(after.substr(2));
        if (!contains_any(next.substr(0, 12), {"initiali", "sampl", "select", "chos", "generat", "crop", "drawn", "shuffl",
                                               "split", "pick", "flip", "rotat", "mask"})) {
          return true;
        }
        continue;
      }
      if (!after.empty() && (is_alpha(after[0]) || is_digit(after[0]) || after[0] == '_')) continue;  // "randomness"
      if (word_before(p, "at ")) return true;  // "at random"
      const std::string_view next = trim_view(after);
      // The word after it: a moment or a failure ("random times", "random OOMs"), or nothing (the end of
      // a clause: "it seems random.", "OOMs appear random, ..."); another noun is a data's or a
      // method's ("random features", "random noise", "random crop").
      bool ends = next.empty() || ((next[0] == '.' || next[0] == ',' || next[0] == ')' || next[0] == ';' || next[0] == '!') &&
                                   (next.size() == 1 || next[1] == ' '));
      // (Whole words, a plural 's' allowed: not "random points" of a point cloud, "random CUDA tensors".)
      // ("random points", "random places" are a point cloud's or a crop's; "at random points" is read above.)
      for (std::string_view w : {"time", "moment", "step", "iteration", "epoch", "oom", "crash", "error", "failure",
                                 "fail", "interval", "number of", "runtimeerror", "out of memory", "out-of-memory",
                                 "cuda oom", "cuda error", "cuda out of memory", "gpu oom"}) {
        if (next.substr(0, w.size()) != w) continue;
        size_t e = w.size();
        if (e < next.size() && next[e] == 's') ++e;
        if (e >= next.size() || !(is_alpha(next[e]) || is_digit(next[e]) || next[e] == '_')) ends = true;
      }
      if (!ends) continue;
      if (next.empty() || !is_alpha(next[0])) {
        // Alone at a clause's end, told of the failure ("it seems random", "is random", "appear random").
        for (std::string_view cue : {"seems ", "seem ", "seemingly ", "is ", "are ", "totally ", "completely ", "pretty ",
                                     "quite ", "very ", "appear ", "appears ", "looks "}) {
          if (word_before(p, cue)) return true;
        }
        continue;
      }
      return true;
    }
    return false;
  }

  // Memory allotted to a job in the user's words, on the lower-cased line `lo`: in one sentence (not
  // asked or supposed), "memory" or "RAM" for, to or per the / my / this / each job and a size
  // ("allocating 32 GB of memory for the job"); no GPU named on the line.
  static bool job_memory_allotted(std::string_view lo) {
    if (lo.find("job") == std::string_view::npos) return false;  // (every phrase below holds it)
    if (gpu_memory_named(lo) || gpu_named(lo)) return false;
    for (std::string_view t : sentences(lo)) {
      bool told = false;
      for (std::string_view noun : {"memory ", "ram "}) {
        for (std::string_view prep : {"for the job", "for my job", "for this job", "for each job", "to the job",
                                      "to my job", "per job"}) {
          told = told || contains_word_start(t, std::string(noun) + std::string(prep));  // (not "program per job")
        }
      }
      if (told && size_named(t, false) && t.find('?') == std::string_view::npos && !contains_word(t, "if")) return true;
    }
    return false;
  }

  // Items worked through in a loop (a loop named, "one by one", "one after another", "every image")
  // and memory told full, run out or OOM after a few or some of them ("after few images", "after a few requests",
  // "after several files"), in one clause. Not asked, supposed or denied.
  static bool items_loop_fill_told(std::string_view lo) {
    if (!contains_any(lo, {"after few ", "after a few ", "after several ", "after some "})) return false;
    if (!contains_any(lo, {"loop", "one by one", "one after another", "one after the other", "every image", "each image",
                           "every file", "each file", "every request", "each request", "every sample", "each sample"})) {
      return false;
    }
    for (std::string_view c : clauses(lo)) {
      if (asks(c) || contains_word(c, "if") || contains_any(c, {"not ", "n't", "never"})) continue;
      if (!contains_any(c, {"full", "run out", "runs out", "ran out", "oom", "out of memory", "memory error",
                            "crash", "killed"})) {
        continue;
      }
      for (std::string_view few : {"after few ", "after a few ", "after several ", "after some "}) {
        const size_t p = c.find(few);
        if (p == std::string_view::npos) continue;
        const std::string_view what = c.substr(p + few.size(), 14);
        if (contains_any(what, {"image", "file", "request", "prediction", "call", "batch", "document", "page", "sample",
                                "video", "picture", "photo", "item", "inference", "quer", "iteration", "loop"})) {
          return true;
        }
      }
    }
    return false;
  }

  // Batch size 1 told in Chinese with the failure going on, on the lower-cased line `lo`: the batch's
  // name, a verb of setting, 1, then the failure told going on (zh_failure_goes_on(), within 24 bytes).
  static bool zh_batch_one_fails(std::string_view lo) {
    // Not asked or supposed in the batch's clause (up to "，" / "。" / "；" / "！" and the "？" that ends it): 吗,
    // ？ / ?, 如果 (if), 的话 (in case).
    auto asked_or_supposed = [&](size_t b) {
      size_t from = 0, to = lo.size();
      for (std::string_view sep : {"\xef\xbc\x8c", "\xe3\x80\x82", "\xef\xbc\x9b", "\xef\xbc\x81", "\xef\xbc\x9f"}) {
        if (const size_t s = lo.rfind(sep, b); s != std::string_view::npos) from = std::max(from, s + sep.size());
        if (const size_t s = lo.find(sep, b); s != std::string_view::npos) to = std::min(to, s + sep.size());
      }
      return contains_any(lo.substr(from, to - from),
                          {"\xe5\x90\x97", "\xef\xbc\x9f", "?", "\xe5\xa6\x82\xe6\x9e\x9c", "\xe7\x9a\x84\xe8\xaf\x9d"});
    };
    // The batch's name, then within 40 bytes, in the same clause (no "，" / "," / "、" / "；" between: not
    // another setting's "学习率改成1e-5"), a verb of setting (设置成 / 设成 / 设为 / 设置为 / 改成 / 改为 / 调成 /
    // 调到 / 调为 / 降到 / 减到 / 设到) and 1 as a count of its own (not 16, 1.5, 1e-5).
    // (The batch named in English, or in Chinese: 批次 / 批大小 / 批量 / 批处理大小 / 批尺寸, "批次设置为1但是
    // 依旧出现显存不足"; a Chinese name with its verb right after it, not 批量推理的并发数改为1 (bulk inference's
    // concurrency), nor an accumulation's or a logging interval's count, 梯度累积批次 / 打印间隔批次.)
    static constexpr std::string_view kBatchNames[] = {
        "batch", "\xe6\x89\xb9\xe6\xac\xa1", "\xe6\x89\xb9\xe5\xa4\xa7\xe5\xb0\x8f", "\xe6\x89\xb9\xe9\x87\x8f",
        "\xe6\x89\xb9\xe5\xa4\x84\xe7\x90\x86\xe5\xa4\xa7\xe5\xb0\x8f", "\xe6\x89\xb9\xe5\xb0\xba\xe5\xaf\xb8"};
    for (std::string_view name : kBatchNames) {
      const size_t w = name.size();
      const bool zh_name = name != kBatchNames[0];
      for (size_t b = lo.find(name); b != std::string_view::npos; b = lo.find(name, b + w)) {
        if (asked_or_supposed(b)) continue;
        if (zh_name && b >= 6 &&
            contains_any(lo.substr(b - 6, 6), {"\xe7\xb4\xaf\xe7\xa7\xaf", "\xe7\xb4\xaf\xe8\xae\xa1",
                                              "\xe9\x97\xb4\xe9\x9a\x94", "\xe6\x89\x93\xe5\x8d\xb0"})) {
          continue;
        }
        std::string_view near = lo.substr(b + w, zh_name ? 12 : 40);
        for (std::string_view sep : {"\xef\xbc\x8c", ",", "\xe3\x80\x81", "\xef\xbc\x9b", ";"}) {
          if (const size_t cut = near.find(sep); cut != std::string_view::npos) near = near.substr(0, cut);
        }
        for (std::string_view set : {"\xe8\xae\xbe\xe7\xbd\xae\xe6\x88\x90", "\xe8\xae\xbe\xe6\x88\x90",
                                     "\xe8\xae\xbe\xe4\xb8\xba", "\xe8\xae\xbe\xe7\xbd\xae\xe4\xb8\xba",
                                     "\xe6\x94\xb9\xe6\x88\x90", "\xe6\x94\xb9\xe4\xb8\xba", "\xe8\xb0\x83\xe6\x88\x90",
                                     "\xe8\xb0\x83\xe5\x88\xb0", "\xe8\xb0\x83\xe4\xb8\xba", "\xe9\x99\x8d\xe5\x88\xb0",
                                     "\xe5\x87\x8f\xe5\x88\xb0", "\xe8\xae\xbe\xe5\x88\xb0", "\xe4\xbf\xae\xe6\x94\xb9\xe4\xb8\xba",
                                     "\xe4\xbf\xae\xe6\x94\xb9\xe6\x88\x90", "="}) {  // (... and "batch size=1")
          const size_t s = near.find(set);
          if (s == std::string_view::npos) continue;
          size_t one = b + w + s + set.size();
          while (one < lo.size() && lo[one] == ' ') ++one;
          // (A filler before the 1: 最低 / 最小 (the lowest, the smallest, also with 的 / 值), 仅 / 只 (only):
          // "设为最低1了", "调到最小的1".)
          for (std::string_view filler : {"\xe6\x9c\x80\xe4\xbd\x8e\xe7\x9a\x84", "\xe6\x9c\x80\xe5\xb0\x8f\xe7\x9a\x84",
                                          "\xe6\x9c\x80\xe4\xbd\x8e\xe5\x80\xbc", "\xe6\x9c\x80\xe5\xb0\x8f\xe5\x80\xbc",
                                          "\xe6\x9c\x80\xe4\xbd\x8e", "\xe6\x9c\x80\xe5\xb0\x8f", "\xe4\xbb\x85", "\xe5\x8f\xaa"}) {
            if (lo.compare(one, filler.size(), filler) == 0) {
              one += filler.size();
              while (one < lo.size() && lo[one] == ' ') ++one;
              break;
            }
          }
          if (one >= lo.size() || lo[one] != '1' ||
              (one + 1 < lo.size() && (is_digit(lo[one + 1]) || lo[one + 1] == '.' || is_alpha(lo[one + 1])))) {
            continue;
          }
          // After it, the failure going on (zh_failure_goes_on()), or the failure itself within the next
          // clauses with no 不 / 没 before it ("把 batchsize设为1，只有1张卡，oom": set to 1, one card, OOM), or
          // 还是不行 / 依然不行 / 也不行 ("still no good") in the batch's own clause ("batch size=1 还是不行"; not
          // "batch size=1 不会oom，但速度还是不行", the speed's).
          std::string_view own = lo.substr(one + 1, 24);
          for (std::string_view sep : {"\xef\xbc\x8c", ",", "\xe3\x80\x82", "\xef\xbc\x9b", ";"}) {
            if (const size_t cut = own.find(sep); cut != std::string_view::npos) own = own.substr(0, cut);
          }
          const bool still_no_good = contains_any(own, {"\xe8\xbf\x98\xe6\x98\xaf\xe4\xb8\x8d\xe8\xa1\x8c",
                                                        "\xe4\xbe\x9d\xe7\x84\xb6\xe4\xb8\x8d\xe8\xa1\x8c",
                                                        "\xe4\xb9\x9f\xe4\xb8\x8d\xe8\xa1\x8c"});
          if (zh_failure_goes_on(lo, one, 24) != std::string_view::npos || zh_failure_follows(lo, one + 1, 30) ||
              still_no_good) {
            return true;
          }
        }
      }
    }
    return false;
  }

  // Batch sizes tried or lowered in vain, told in Chinese on the lower-cased line `lo`: a verb of
  // trying or lowering (尝试, 试了, 试过, 调小, 改小, 减小, 降低) and, after it, the failure told going on
  // within four characters of a word of all or still (zh_failure_goes_on()).
  // Also the batch told already lowered (已经 then 降到 / 降为 / 减到 / 调小 / 改小 / 减小 / 降低:
  // "batch已经降到2了"), the failure being the report's own.
  static bool zh_batch_in_vain(std::string_view lo) {
    size_t tried = std::string_view::npos;
    for (std::string_view v : {"\xe5\xb0\x9d\xe8\xaf\x95", "\xe8\xaf\x95\xe4\xba\x86", "\xe8\xaf\x95\xe8\xbf\x87",
                               "\xe8\xb0\x83\xe5\xb0\x8f", "\xe6\x94\xb9\xe5\xb0\x8f", "\xe5\x87\x8f\xe5\xb0\x8f",
                               "\xe9\x99\x8d\xe4\xbd\x8e"}) {
      tried = std::min(tried, lo.find(v));
    }
    if (tried != std::string_view::npos && zh_failure_goes_on(lo, tried, 12) != std::string_view::npos) return true;
    // (Not where the line tells it running after: 可以 (can), 正常 (normally), 解决 (solved), 不会 (won't), 能跑
    // (runs): "batch已经降到2了，现在可以正常训练".)
    if (contains_any(lo, {"\xe5\x8f\xaf\xe4\xbb\xa5", "\xe6\xad\xa3\xe5\xb8\xb8", "\xe8\xa7\xa3\xe5\x86\xb3",
                          "\xe4\xb8\x8d\xe4\xbc\x9a", "\xe8\x83\xbd\xe8\xb7\x91"})) {
      return false;
    }
    for (size_t b = lo.find("batch"); b != std::string_view::npos; b = lo.find("batch", b + 5)) {
      const size_t already = lo.find("\xe5\xb7\xb2\xe7\xbb\x8f", b);  // 已经
      if (already == std::string_view::npos || already > b + 16) continue;
      const std::string_view verb = lo.substr(already + 6, 6);
      // (Not 调到 / 改到, "set to": neutral, "batch已经调到64了" raised it.)
      for (std::string_view v : {"\xe9\x99\x8d\xe5\x88\xb0", "\xe9\x99\x8d\xe4\xb8\xba", "\xe5\x87\x8f\xe5\x88\xb0",
                                 "\xe8\xb0\x83\xe5\xb0\x8f", "\xe6\x94\xb9\xe5\xb0\x8f",
                                 "\xe5\x87\x8f\xe5\xb0\x8f", "\xe9\x99\x8d\xe4\xbd\x8e"}) {
        if (verb == v) return true;
      }
    }
    return false;
  }

  // The batch told failing however it is set, in Chinese: 不管 / 无论 (no matter) with the batch within 12
  // bytes after it and the failure going on after that (zh_failure_goes_on(): "不管batchsize设置多少都会报错",
  // however the batch is set, it fails).
  static bool zh_batch_however(std::string_view lo) {
    for (std::string_view however : {"\xe4\xb8\x8d\xe7\xae\xa1", "\xe6\x97\xa0\xe8\xae\xba"}) {  // 不管, 无论
      const size_t p = lo.find(however);
      // (Not memory told growing: 涨 / 增长 / 增加 / 越来越 / 一直, "无论batch设多少，显存都会一直涨到爆" is growth's.)
      if (p != std::string_view::npos && lo.substr(p, 18).find("batch") != std::string_view::npos &&
          zh_failure_goes_on(lo, p, 24) != std::string_view::npos &&
          !contains_any(lo, {"\xe6\xb6\xa8", "\xe5\xa2\x9e\xe9\x95\xbf", "\xe5\xa2\x9e\xe5\x8a\xa0",
                             "\xe8\xb6\x8a\xe6\x9d\xa5\xe8\xb6\x8a", "\xe4\xb8\x80\xe7\x9b\xb4"})) {
        return true;
      }
    }
    return false;
  }

  // The failure told in Chinese (zh_failure_goes_on(), zh_failure_follows()): OOM, "out of", 爆 / 炸 (blown),
  // 报错 (an error), 溢出 (overflow), 不足 / 不够 (not enough), 超出 (exceeded).
  static constexpr std::string_view kZhFailWords[] = {"oom", "out of", "\xe7\x88\x86", "\xe7\x82\xb8",
                                                      "\xe6\x8a\xa5\xe9\x94\x99", "\xe6\xba\xa2\xe5\x87\xba",
                                                      "\xe4\xb8\x8d\xe8\xb6\xb3", "\xe4\xb8\x8d\xe5\xa4\x9f",
                                                      "\xe8\xb6\x85\xe5\x87\xba"};

  // A failure word (kZhFailWords) within `window` bytes from byte `from` of `lo`, with no 不 /
  // 没 / 就 / 可以 (not, then, can) before it there: the failure told right after a setting.
  static bool zh_failure_follows(std::string_view lo, size_t from, size_t window) {
    if (from >= lo.size()) return false;
    std::string_view after = lo.substr(from, window);
    // (Up to the next batch named: "batch_size=1，正常，batch_size=2 oom" fails at 2.)
    if (const size_t next = after.find("batch"); next != std::string_view::npos) after = after.substr(0, next);
    for (std::string_view fail : kZhFailWords) {
      const size_t f = after.find(fail);
      if (f == std::string_view::npos) continue;
      const std::string_view lead = after.substr(0, f);
      // (Nor told fine first: 正常 (normal); 没问题 (no problem) holds its 没.)
      if (!contains_any(lead, {"\xe4\xb8\x8d", "\xe6\xb2\xa1", "\xe5\xb0\xb1", "\xe5\x8f\xaf\xe4\xbb\xa5", "?",
                               "\xef\xbc\x9f", "\xe5\x90\x97", "\xe6\xad\xa3\xe5\xb8\xb8"})) {
        return true;
      }
    }
    return false;
  }

  // The failure told going on at or after byte `from` of the lower-cased line `lo`: a word of "still" or
  // "all" (还是 / 依然 / 依旧 / 仍然 / 都 / 也), then within `window` bytes a failure word (OOM, "out of", 爆 /
  // 炸 (blown), 报错 (an error), 溢出 (overflow), 不足 / 不够 (not enough), 超出 (exceeded)) with no 不 / 没
  // between them (也不报错 / 也不会oom / 都没有oom: it runs; 不足 / 不够 hold their own 不). Returns where
  // the "still" word starts, or npos. (zh_batch_one_fails(), zh_batch_in_vain(), zh_smaller_input_in_vain().)
  static size_t zh_failure_goes_on(std::string_view lo, size_t from, size_t window) {
    size_t found = std::string_view::npos;
    for (std::string_view still : {"\xe8\xbf\x98\xe6\x98\xaf", "\xe4\xbe\x9d\xe7\x84\xb6", "\xe4\xbe\x9d\xe6\x97\xa7",
                                   "\xe4\xbb\x8d\xe7\x84\xb6", "\xe9\x83\xbd", "\xe4\xb9\x9f"}) {
      for (size_t p = lo.find(still, from); p != std::string_view::npos && p < found; p = lo.find(still, p + 1)) {
        const std::string_view after = lo.substr(p + still.size(), window);
        for (std::string_view fail : kZhFailWords) {
          const size_t f = after.find(fail);
          if (f == std::string_view::npos) continue;
          const std::string_view lead = after.substr(0, f);
          if (lead.find("\xe4\xb8\x8d") != std::string_view::npos || lead.find("\xe6\xb2\xa1") != std::string_view::npos) continue;
          found = p;
          break;
        }
      }
    }
    return found;
  }


  // host_memory_named() on the line statement() reads, skipped where the line holds none of the
  // texts it needs (each of its readings holds "ram", "memory", "swap", "rss", "paging file", 内存
  // or one of machine_runs_out()'s verbs): the same answer, without its ~25 searches on most lines.
  bool host_memory_on_line(std::string_view lo) const {
    const bool named = line_has(lo, "ram") || line_has(lo, "memory") || line_has(lo, "swap") || line_has(lo, "rss") ||
                       line_has(lo, "paging file") || line_has(lo, "pagefile") || line_has(lo, "pagesfile") ||
                       line_has(lo, "page file") || (!ascii_ && line_has(lo, "\xe5\x86\x85\xe5\xad\x98"));
    const bool machine_verb = line_has(lo, "out of") || line_has(lo, "unresponsive") || line_has(lo, "froze") ||
                              line_has(lo, "freez") || line_has(lo, "hang") || line_has(lo, "hung") || line_has(lo, "halt");
    return (named || machine_verb) && host_memory_named(lo);
  }

  // Windows' paging file (its swap, and the commit limit every host allocation counts against):
  // "paging file", "pagefile.sys" (also as "pagesfile"), "page file", "virtual memory" (not the
  // GPU's virtual memory management API).
  static bool windows_paging_file(std::string_view lo) {
    if (contains_any(lo, {"paging file", "pagefile", "pagesfile", "page file"})) return true;
    const size_t v = lo.find("virtual memory");
    return v != std::string_view::npos && lo.compare(v + 14, 11, " management") != 0 && lo.compare(v + 14, 4, " api") != 0;
  }

  // The host's memory named in `lo` (a line or a clause): "RAM" as a word, system / host / CPU /
  // main / physical memory, 内存, swap, RSS, Windows' paging file.
  static bool host_memory_named(std::string_view lo) {
    if (contains_word(lo, "ram")) return true;
    if (machine_runs_out(lo)) return true;  // "the system ran out of memory": its RAM
    if (lo.find("\xe5\x86\x85\xe5\xad\x98") != std::string_view::npos) return true;  // 内存 (zh: the host's memory)
    // "swap" the noun, not the verb ("after I swap the optimizer to Adafactor").
    if ((contains_word(lo, "swap") && lo.find("swap the") == std::string_view::npos &&
         lo.find("swap to") == std::string_view::npos && lo.find("swap out") == std::string_view::npos &&
         lo.find("i swap") == std::string_view::npos && lo.find("to swap") == std::string_view::npos) ||
        contains_word(lo, "rss") || windows_paging_file(lo)) {
      return true;
    }
    for (std::string_view h : {"system memory", "host memory", "cpu memory", "main memory", "physical memory",
                               "machine's memory", "machine memory", "host side memory", "host-side memory",
                               "cpu side memory", "cpu-side memory", "host side ram", "host-side ram"}) {
      if (lo.find(h) != std::string_view::npos) return true;
    }
    return false;
  }

  // One clause of host_ram_runs_out().
  static bool host_ram_told(std::string_view lo) {
    auto has_text = [&](std::string_view s) { return lo.find(s) != std::string_view::npos; };
    if (!host_memory_named(lo) || gpu_memory_named(lo)) return false;
    // zh 内存溢出 ("memory overflow") is the generic Chinese name of an out-of-memory error (Java's
    // OutOfMemoryError is translated so): where 内存 appears only in it and nothing else names the
    // host (RAM, 系统 the system, 主机 the host, CPU), it names no device.
    if (has_text("\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba") && zh_host_memory_named(lo) == 0 &&
        !contains_word(lo, "ram") && !has_text("cpu") &&
        !has_text("\xe7\xb3\xbb\xe7\xbb\x9f") && !has_text("\xe4\xb8\xbb\xe6\x9c\xba")) {
      return false;
    }
    bool runs_out = false;
    for (std::string_view x : {"crash", "killed", "restart", "ran out", "runs out", "run out", "hit the peak",
                               "all available", "used up", "not enough", "n't enough", "insufficient", "exceed",
                               "out of memory", "fills up", "filled up", "100%", "99%", "98%", "freez", "froze", "maxes out",
                               "maxed out", "max out", "maxing out", "eats all", "eating all", "eat all", "ate all",
                               "sigkill", "code 137", "oomkill", "oom-kill", "oom killer", "unresponsive", "thrash",
                               "exhaust", "swapping", "fully used", "too small", "through the roof",

                               // its limit reached or passed ("will surpass 25gb (25gb is the limit for colab pro
                               // high ram)", "gets killed when it hits the RAM limit")
                               "surpass", "hits the", "hit the limit", "reached the limit", "reaches the limit",
                               "over the limit", "ram limit", "pushes over", "goes over", "went over",
                               // zh: 卡住 (stuck), 上限 (the limit), 崩 (crashed)
                               "\xe5\x8d\xa1\xe4\xbd\x8f", "\xe4\xb8\x8a\xe9\x99\x90", "\xe5\xb4\xa9",
                               // zh: 吃光 / 用光 / 用完 (eaten up, used up)
                               "\xe5\x90\x83\xe5\x85\x89", "\xe7\x94\xa8\xe5\x85\x89", "\xe7\x94\xa8\xe5\xae\x8c"}) {
      if (has_text(x)) {
        runs_out = true;
        break;
      }
    }
    // (Also the machine told halting, freezing or running out, machine_runs_out(): "it makes my computer
    // system halted".)
    runs_out = runs_out || machine_runs_out(lo);
    // "OOM" as a word ("RAM OOM"); zh: 溢出 (overflows), 不足 / 不够 (not enough), 爆 (bursts). Not
    // where a GPU is named too, by that word or a model's: "8 L4s (GPU 45GB in RAM) failed with
    // OOM", "OOM on my RTX 3090 even with 64GB RAM" are the GPU's.
    if (!runs_out && !gpu_named(lo)) {
      runs_out = contains_word(lo, "oom") || contains_word(lo, "ooms") || contains_word(lo, "oomed") ||
                 contains_word(lo, "ooming");
      // zh: 占满 / 满了 (filled up; not 满足 "satisfies"), 耗尽 (exhausted), 飙 (soars), 暴涨 (surges), 卡死
      // (freezes), 超出 / 超过 / 超内存 (exceeds, "这样就超内存了"; not 超参数, a hyperparameter).
      for (std::string_view z : {"\xe6\xba\xa2\xe5\x87\xba", "\xe4\xb8\x8d\xe8\xb6\xb3", "\xe4\xb8\x8d\xe5\xa4\x9f",
                                 "\xe7\x88\x86", "\xe5\x8d\xa0\xe6\xbb\xa1", "\xe6\xbb\xa1\xe4\xba\x86", "\xe8\x80\x97\xe5\xb0\xbd", "\xe9\xa3\x99",
                                 "\xe6\x9a\xb4\xe6\xb6\xa8", "\xe5\x8d\xa1\xe6\xad\xbb", "\xe8\xb6\x85\xe5\x87\xba",
                                 "\xe8\xb6\x85\xe8\xbf\x87", "\xe8\xb6\x85\xe5\x86\x85\xe5\xad\x98"}) {
        runs_out = runs_out || has_text(z);
      }
    }
    // All of it told taken ("all 32 gigs of RAM I have available were taken"; not a reading "taken with
    // psutil", nor "the RAM taken up by the dataset is about 2 GB").
    // ("all" before the memory's name, in the clause that tells it taken; not "taken with / by / from".)
    for (std::string_view c : clauses(lo)) {
      if (runs_out || !contains_any(c, {"were taken", "was taken", "got taken"}) ||
          contains_any(c, {"taken with", "taken by", "taken from", "taken every", "taken each"})) {
        continue;
      }
      for (std::string_view mem : {"ram", "memory"}) {
        const size_t m = c.find(mem);
        if (m == std::string_view::npos) continue;
        const std::string_view before = c.substr(0, m);
        runs_out = runs_out || contains_word(before, "all") ||
                   contains_any(before, {"fully", "completely", "entirely"});
      }
    }
    // The host's memory growing with DataLoader workers: each worker process holds its own copy of
    // what the dataset touches (copy-on-write pages of Python objects), so with N workers the host
    // holds up to N + 1 copies: "the main memory usage increases from 5GB to 17GB when num_workers
    // is nonzero".
    // Not growth told as fine or slight, avoided, or advice to raise the workers.
    if (!runs_out && (has_text("dataloader") || has_text("num_workers") || contains_word(lo, "workers"))) {
      // zh 增加 (increases), 暴涨 (surges) above.
      runs_out = (has_text("increas") || has_text("grow") || has_text("climb") || has_text("balloon") ||
                  has_text("explod") || has_text("goes up") || has_text("going up") || has_text("shoots up") ||
                  has_text("skyrocket") || has_text("\xe5\xa2\x9e\xe5\x8a\xa0")) &&
                 !fine_told(lo) && !contains_word(lo, "normal") && !has_text("expected") &&
                 !has_text("avoid") && !has_text("a little") && !has_text("slightly") && !has_text("increase num_workers") &&
                 !has_text("increase the num_workers") && !has_text("increasing num_workers") &&
                 !has_text("increase the number of workers") && !has_text("faster");
    }
    // Full, said of the memory (memory_full_told(): "the RAM gets completely full", not "full
    // fine-tuning", "full speed DDR5", "to get full performance").
    if (!runs_out) runs_out = memory_full_told(lo);
    if (!runs_out) return false;
    // A denial ("the RAM is not full", "didn't crash"), but "not enough RAM" is the trouble itself.
    if ((has_text("not ") || has_text("n't") || has_text("nothing") || has_text("never")) && !has_text("not enough") &&
        !has_text("n't enough")) {
      return false;
    }
    if (has_text("enough ram") && !has_text("not enough ram")) return false;
    if (contains_word(lo, "fixed") || contains_word(lo, "fixes")) return false;  // a fix announced
    // zh: asked, supposed, denied or fixed (zh_asked_supposed_or_denied(), which also holds '?').
    if (zh_asked_supposed_or_denied(lo)) return false;
    return !has_text("no crash") && !has_text("without crash");
  }


  // An optimizer said to take memory, in `lo` (a line, ASCII-lowercased): an optimizer named
  // (Adam and its kin, "optimizer", SGD with momentum, Adafactor, Lion, the Adam moments) in the
  // same clause as more memory than something else or a lot of it: "DAdaptAdam has a higher
  // memory usage than standard Adam", "does FusedAdam consume twice the memory?", "the optimizer
  // states take 3x the model's memory", "weights 14GB, optimizer 56GB"; or the failure at its step
  // or when its state is loaded ("OOMs exactly at optimizer.step()", "OOM on resume: Trainer loads
  // optimizer.pt straight to GPU"). Adam keeps two fp32 moments per parameter (8 bytes; Kingma &
  // Ba 2015, Algorithm 1), which is what such a sentence is about. Not a denial of it, a saving,
  // nor a fact told as expected; zh as below.
  static bool optimizer_memory_told(std::string_view lo) {
    for (std::string_view clause : clauses(lo)) {
      auto has_text = [&](std::string_view s) { return clause.find(s) != std::string_view::npos; };
      // zh: 优化器 (optimizer), Adam or "optimizer" with 显存 / 内存 and 大部分 (most of), 暴涨 (surges), 吃
      // (eats), 一倍 / 翻倍 (double), 太多 (too much), 占了 (took), 太占 (takes too much), 涨到 (rose to), 炸
      // (blows up), 不够 (not enough).
      // Or the failure at the optimizer's step ("the OOM always happens on optimizer.step() in the
      // first iteration", "the spike is at opt.step()"): its state is created there.
      // Or its state loaded on resume ("OOMs inside optimizer.load_state_dict", "Trainer loads
      // optimizer.pt straight to GPU"), or its state named with the failure ("ZeRO-1 still OOMs when
      // it allocates the fp32 optimizer states", "the AdamW state ... blows past my memory").
      const bool step = has_text("optimizer.step") || has_text("opt.step") || has_text("optim.step") ||
                        has_text("adam step") || has_text("step()") || has_text("optimizer.load_state") ||
                        has_text("optimizer.pt") || (has_text("optimizer") && has_text("load_state")) ||
                        has_text("optimizer state") || has_text("optimizer's state") || has_text("adam state") ||
                        has_text("adamw state") || has_text("opt_state") || has_text("exp_avg");
      const bool fails = contains_word_start(clause, "oom") || contains_word_start(clause, "spike") ||
                         contains_word_start(clause, "crash") || contains_word(clause, "dies") || has_text("over the edge") ||
                         has_text("pushes it over") || has_text("tips it over") || contains_word_start(clause, "doubl") ||
                         contains_word_start(clause, "jump") || has_text("blows up") || has_text("blows past") ||
                         has_text("blow past") || has_text("n't fit") || has_text("not fit") || has_text("dont fit") ||
                         has_text("doesnt fit") || has_text("not enough") || has_text("\xe7\x82\xb8") ||  // 炸 (blows up)
                         has_text("\xe4\xb8\x8d\xe5\xa4\x9f") ||  // 不够 (not enough)
                         ((contains_word_start(clause, "allocat") || contains_word_start(clause, "need") ||
                           contains_word_start(clause, "materializ") || has_text("->")) &&
                          size_named(clause, false));
      // A denial other than of the fit itself ("doesn't fit" is the failure).
      const bool denied = (has_text("not ") && !has_text("not fit") && !has_text("not enough")) ||
                          (has_text("n't") && !has_text("n't fit")) || has_text("before opt") || has_text("before the opt") ||
                          apostrophe_less_denial(clause) ||
                          contains_word_start(clause, "loss");  // "loss spikes" is no memory
      if (step && fails && !denied) return true;
      if ((has_text("\xe4\xbc\x98\xe5\x8c\x96\xe5\x99\xa8") || has_text("adam") || has_text("optimizer")) &&
          (has_text("\xe6\x98\xbe\xe5\xad\x98") || has_text("\xe5\x86\x85\xe5\xad\x98")) &&
          (has_text("\xe5\xa4\xa7\xe9\x83\xa8\xe5\x88\x86") || has_text("\xe6\x9a\xb4\xe6\xb6\xa8") ||
           has_text("\xe5\x90\x83") || has_text("\xe4\xb8\x80\xe5\x80\x8d") || has_text("\xe7\xbf\xbb\xe5\x80\x8d") ||
           has_text("\xe5\xa4\xaa\xe5\xa4\x9a") || has_text("\xe5\x8d\xa0\xe4\xba\x86") ||
           has_text("\xe5\xa4\xaa\xe5\x8d\xa0") || has_text("\xe6\xb6\xa8\xe5\x88\xb0") || has_text("\xe7\x82\xb8") ||
           has_text("\xe4\xb8\x8d\xe5\xa4\x9f")) &&
          !has_text("\xe5\x87\x8f\xe5\xb0\x91") && !has_text("\xe8\x8a\x82\xe7\x9c\x81") && !has_text("\xe9\x99\x8d") &&
          !has_text("8bit") && !has_text("8-bit") && !has_text("8 bit")) {
        return true;  // not 减少 / 节省 / 降 (reduces, saves, lowers), not an 8-bit optimizer (the remedy)
      }
      const bool optimizer = has_text("adam") || has_text("optimizer") || has_text("optimiser") ||
                             contains_word(clause, "optim") || contains_word(clause, "sgd") ||
                             has_text("momentum") || contains_word(clause, "moments") || has_text("adafactor") ||
                             contains_word(clause, "lion") || has_text("exp_avg");
      if (!optimizer) continue;
      // The memory named, or (weakly) nvidia-smi's reading, a usage or a size ("weights 14GB,
      // optimizer 56GB"): a weak one needs a word of much that is itself about taking memory
      // ("killing me", "most of", "eats"), not a multiple or a comparison ("4x A100 80GB", "for
      // more than 10 epochs").
      const bool memory = contains_word_start(clause, "memor") || contains_word(clause, "mem") ||
                          contains_word(clause, "vram") || contains_word(clause, "footprint") || has_text("model size");
      const bool weak_memory = contains_word(clause, "usage") || has_text("nvidia-smi") || size_named(clause, false);
      const bool much_taking = has_text("too much") || has_text("all the memory") || has_text("all of the memory") ||
                               has_text("most of") || has_text("take up") || has_text("takes up") || has_text("took up") ||
                               has_text("taking up") || has_text("% of") || contains_word_start(clause, "occup") ||
                               contains_word_start(clause, "eat") || contains_word_start(clause, "hog") ||
                               contains_word(clause, "killing") || contains_word(clause, "hungry") ||
                               contains_word(clause, "insane") || has_text("huge") || has_text("way more") ||
                               has_text("over the limit") || has_text("bytes per param") || has_text("more vram") ||
                               has_text("more than the") || has_text("more than all") || has_text("bigger than") ||
                               has_text("larger than") || has_text("uses more") || has_text("takes more") ||
                               has_text("taking more") || consumes_memory(clause);
      const bool much = much_taking || has_text("more memory") || has_text("higher memory") || has_text("larger memory") ||
                        has_text("extra memory") || has_text("twice") || has_text("double") || contains_word_start(clause, "tripl") ||
                        has_text("memory hungry") || has_text("memory-hungry") || has_text("memory intensive") ||
                        has_text("lot of memory") || has_text("much memory") || has_text("memory usage rises") ||
                        has_text("times higher") || has_text("times more") || has_text("times the") ||
                        has_text("blows up") || has_text("blow up") || contains_word_start(clause, "spike") ||
                        contains_word_start(clause, "jump") || has_text("2x") || has_text("3x") || has_text("4x");
      if (!(memory && much) && !(weak_memory && much_taking)) continue;
      if (has_text("not ") || has_text("n't") || has_text("no more") || has_text("less memory") || has_text("fewer") ||
          apostrophe_less_denial(clause)) {
        continue;
      }
      // A saving or a fact as expected ("8-bit Adam cuts optimizer memory by 2x", "which is expected").
      bool saving = has_text("as expected") || has_text("is expected") || has_text("by design") || has_text("documented") ||
                    contains_word(clause, "less") || contains_word(clause, "faster");
      for (std::string_view v : {"cut", "reduc", "save", "saving", "halv", "lower", "shrink", "decreas"}) {
        saving = saving || contains_word_start(clause, v);
      }
      if (saving) continue;
      return true;
    }
    return false;
  }

  // A DataLoader's batch as large as its dataset, as a keyword argument ("DataLoader(cd.eval(), batch_size=len(cd))",
  // "batch_size =len(ds)"): "batch_size" after "(" or ",", then "=" and "len(". Not an assignment in a collate
  // function ("batch_size = len(batch)", the batch it was handed). `lo` lowercased.
  static bool whole_set_batch(std::string_view lo) {
    for (size_t at = lo.find("batch_size"); at != std::string_view::npos; at = lo.find("batch_size", at + 10)) {
      size_t b = at;
      while (b > 0 && lo[b - 1] == ' ') --b;
      if (b == 0 || (lo[b - 1] != '(' && lo[b - 1] != ',')) continue;
      size_t k = at + 10;
      while (k < lo.size() && lo[k] == ' ') ++k;
      if (k >= lo.size() || lo[k] != '=') continue;
      ++k;
      while (k < lo.size() && lo[k] == ' ') ++k;
      if (lo.compare(k, 4, "len(") == 0) return true;
    }
    return false;
  }

  // A count of points, a thousand or more: digits (with "," or "."), a k / m / thousand / million after
  // them, or four digits and more, then "points" ("40k points", "~800k points", "1,200,000 points", "2
  // million points"; not "2 points better in mIoU"). `lo` lowercased.
  static bool points_counted(std::string_view lo) {
    for (size_t at = lo.find("points"); at != std::string_view::npos; at = lo.find("points", at + 6)) {
      if (at == 0 || lo[at - 1] != ' ') continue;
      size_t k = at;
      while (k > 0 && lo[k - 1] == ' ') --k;
      bool unit = false;
      for (std::string_view u : {"million", "thousand", "k", "m"}) {
        if (k >= u.size() && lo.substr(k - u.size(), u.size()) == u) {
          k -= u.size();
          unit = true;
          break;
        }
      }
      while (k > 0 && lo[k - 1] == ' ') --k;
      size_t digits = 0;
      while (k > 0 && (is_digit(lo[k - 1]) || lo[k - 1] == ',' || lo[k - 1] == '.')) digits += is_digit(lo[--k]) ? 1 : 0;
      if (digits > 0 && (unit || digits >= 4)) return true;
    }
    return false;
  }

  // The first GPU alone holding the run, in `lo` (a line, ASCII-lowercased), other than by "only"
  // (only_first_gpu_used()): the first GPU named ("first gpu", "gpu 0", "cuda:0", "device 0", 0号卡,
  // 第一张卡) and either the other GPUs told idle or empty ("the first GPU fills up completely while
  // GPU 1 stays almost empty", "GPU0 24GB, GPU1 0% 3MiB") or everything on it, with more GPUs
  // named, failing there ("YOLOv8 with device=0,1 still loads everything on GPU 0 and crashes
  // there"). Not the first GPU told as running hotter, printing logs or timing out, nor as meant.
  static bool first_gpu_alone(std::string_view lo) {
    auto has_text = [&](std::string_view s) { return lo.find(s) != std::string_view::npos; };
    auto any = [&](std::initializer_list<std::string_view> ws) {
      return std::any_of(ws.begin(), ws.end(), [&](std::string_view w) { return has_text(w); });
    };
    // 前两张卡跑满，后两张卡几乎无占用 (the first two cards full, the last two almost unused): some cards
    // full (跑满 / 占满 / 满了), the others idle, in Chinese.
    if (has_text("\xe5\xbc\xa0\xe5\x8d\xa1") &&  // 张卡 (N cards)
        any({"\xe8\xb7\x91\xe6\xbb\xa1", "\xe5\x8d\xa0\xe6\xbb\xa1", "\xe6\xbb\xa1\xe4\xba\x86"}) &&
        any({"\xe5\x87\xa0\xe4\xb9\x8e\xe6\x97\xa0", "\xe5\x87\xa0\xe4\xb9\x8e\xe6\xb2\xa1", "\xe6\x97\xa0\xe5\x8d\xa0\xe7\x94\xa8",
             "\xe6\xb2\xa1\xe6\x9c\x89\xe5\x8d\xa0\xe7\x94\xa8", "\xe7\xa9\xba\xe9\x97\xb2", "\xe6\x9e\x81\xe5\xb0\x91"})) {
      return true;  // 几乎无, 几乎没, 无占用, 没有占用, 空闲 (idle), 极少
    }
    // The model's weights told all on one GPU of several, the first or the last ("It seems the model weights
    // are all on the last gpu, so when inferencing, the last gpu ran out of memory"), failing there: not spread
    // over the others. "The first / last" names one of several; "one / the same GPU" only beside other GPUs
    // named ("... while the other GPUs stay empty"). Not a single card holding it as meant.
    // (Every phrase of these two holds "all ".)
    const bool all_told = has_text("all ");
    const bool first_or_last = all_told && any({"all on the last gpu", "all on the last card", "all on the first gpu", "all on the first card",
                                    "all on gpu 0", "all on gpu0", "all on cuda:0", "all in the last gpu", "all in the first gpu",
                                    "all loaded on the first gpu", "all loaded onto the first gpu", "all loaded on the last gpu",
                                    "all loaded onto the last gpu", "all loaded on gpu 0"});
    const bool one_of_several = all_told && any({"all on one gpu", "all on a single gpu", "all on the same gpu"}) &&
                                any({"other gpu", "others", "gpus", "other card", "cards"});
    if ((first_or_last || one_of_several) && any({"weight", "model", "layers", "parameters"}) &&
        !any({"as expected", "as intended", "only have one", "only one gpu", "single card", "one card"}) &&
        (any({"ran out", "run out", "runs out", "out of memory", "crash", "fail"}) || contains_word_start(lo, "oom"))) {
      return true;
    }
    // (zh: 0号卡 card No. 0, 第一张卡 the first card, 0卡 / 卡0 card 0: not "20卡", twenty cards.)
    const size_t card0 = lo.find("0\xe5\x8d\xa1");
    const bool zh_card0 = (card0 != std::string_view::npos && (card0 == 0 || !is_digit(lo[card0 - 1]))) ||
                          (has_text("\xe5\x8d\xa1" "0") && !has_text("\xe5\x8d\xa1" "0."));
    if (std::none_of(std::begin(kFirstGpuNames), std::end(kFirstGpuNames), has_text) && !zh_card0 &&
        !any({"first device", "rank 0", "rank0", "gpu:0", "first one", "0\xe5\x8f\xb7\xe5\x8d\xa1",
              "0 \xe5\x8f\xb7\xe5\x8d\xa1", "\xe7\xac\xac\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1"})) {
      return false;
    }
    if (any({"hotter", "temperature", "prints", "logs", "timed out", "timeout", "watchdog", "barrier", "nccl", "by design",
             "expected", "on purpose"})) {
      return false;
    }
    const bool others = any({"other gpu", "other card", "other device", "others", "the rest", "second gpu", "second card",
                             "gpu 1-", "gpus 1", "gpu:1",
                             "gpu 1", "gpu1", "cuda:1", "device 1", "\xe5\x85\xb6\xe4\xbb\x96", "\xe5\x85\xb6\xe4\xbd\x99"});
    // 没用 (unused), 是0 (is 0), 极少 / 很少 (very little), 几乎无 / 几乎没 (almost none), 无占用 (nothing held)
    const bool idle = any({"empty", "idle", "unused", " 0%", "0mib", "3mib", "no memory", "nothing", "barely",
                           "\xe6\xb2\xa1\xe7\x94\xa8", "\xe6\x98\xaf" "0", "\xe6\x98\xaf 0", "\xe6\x9e\x81\xe5\xb0\x91",
                           "\xe5\xbe\x88\xe5\xb0\x91", "\xe5\x87\xa0\xe4\xb9\x8e\xe6\x97\xa0", "\xe5\x87\xa0\xe4\xb9\x8e\xe6\xb2\xa1",
                           "\xe6\x97\xa0\xe5\x8d\xa0\xe7\x94\xa8"});
    if (others && idle) return true;
    // The first one the one that fails or holds more than the rest ("it's rank 0 that crashes",
    // "card 0 has way higher memory than the rest and is always the one to OOM", "why is the first
    // one taking all of it").
    if (others && any({"that crashes", "the one to oom", "the one that oom", "the one that crash", "one that dies",
                       "taking all", "takes all", "higher memory", "more memory", "always get more", "only use",
                       "only uses", "only using", "only hold", "only take"})) {
      return true;
    }
    const bool everything = any({"everything", "all the weights", "all layers", "all the layers", "entirely", "nearly all",
                                 "all of the model", "whole model"});
    const bool more_gpus = others || any({"device=0,1", "0,1", "2 cards", "two cards", "dual", "tensor_parallel", "pmap",
                                          "multi-gpu", "multi gpu", "\xe5\xa4\x9a\xe5\x8d\xa1"});  // 多卡
    const bool fails = any({"crash", "oom", "fails", "fail to", "runs out", "run out", "full", "fills"});
    // The whole model put on the first GPU where device_map="auto" would have spread it ("allocates the
    // whole model onto GPU:0 again, should have used device_map=\"auto\""): several GPUs meant.
    if (everything && has_text("device_map") && any({"should have used", "should use", "instead of", "without"})) return true;
    return everything && more_gpus && fails;
  }

  // "after running for more than ten minutes", "after 2 hours", "after a few days of serving": a
  // time span of minutes, hours or days after "after" (within 48 bytes), not steps or epochs.
  static bool ran_for_a_time(std::string_view lo) {
    for (size_t p = lo.find("after "); p != std::string_view::npos; p = lo.find("after ", p + 6)) {
      if (!word_starts_at(lo, p)) continue;
      const std::string_view span = lo.substr(p + 6, 48);
      for (std::string_view unit : {"minute", "hour", "days", "mins", "hrs"}) {
        if (contains_word_start(span, unit)) return true;
      }
    }
    return false;
  }

  // "after 10 epochs", "after a few thousand iterations": epochs, iterations or steps after "after"
  // (within 32 bytes).
  static bool ran_for_steps(std::string_view lo) {
    for (size_t p = lo.find("after "); p != std::string_view::npos; p = lo.find("after ", p + 6)) {
      if (!word_starts_at(lo, p)) continue;
      const std::string_view span = lo.substr(p + 6, 32);
      for (std::string_view unit : {"epoch", "iteration", "steps"}) {
        if (contains_word_start(span, unit)) return true;
      }
    }
    return false;
  }

  // "consume" / "consumes" / "consumed" / "consuming" with the memory in the 35 bytes from "consum"
  // on ("consumed the same memory as full Adam"), not "consumed samples".
  static bool consumes_memory(std::string_view clause) {
    for (size_t p = clause.find("consum"); p != std::string_view::npos; p = clause.find("consum", p + 1)) {
      if (!word_starts_at(clause, p)) continue;
      const std::string_view after = clause.substr(p, 25 + 10);
      if (contains_word_start(after, "memor") || contains_word(after, "vram") || contains_word(after, "ram") ||
          contains_word(after, "gpu")) {
        return true;
      }
    }
    return false;
  }

  // GPU memory told not freed after a run finished, in one sentence of the lower-cased line `lo`:
  // "The cuda memory don't free up when finish the first trainer.train()", "the memory is not released
  // after the first fit()": a phrase of not freeing, a run finished ("finish", "after the first",
  // "after training") and the run (train, fit(, run, model, cell).
  static bool held_after_finished_run(std::string_view lo) {
    for (std::string_view t : sentences(lo)) {
      if (contains_any(t, {"not released", "not freed", "n't free", "n't release", "never freed", "never released",
                           "not free up", "not be freed", "not be released", "still allocated", "remains allocated"}) &&
          contains_any(t, {"finish", "after the first", "after training", "after the training", "once training",
                           "after each run", "after the run"}) &&
          (contains_any(t, {"train", "fit(", "run", "model", "cell"}) || contains_word(t, "fit"))) {
        return true;
      }
    }
    return false;
  }

  // A copy of the data held in host memory by each process, in one clause of the lower-cased line
  // `lo`: "each GPU's process reads a copy of data into memory", "every rank loads its own copy of the
  // dataset in RAM", "the dataset is copied into memory by each worker": N processes, N copies in the
  // host's RAM. Not denied or asked, not the GPU's memory as the place.
  static bool data_copy_per_process(std::string_view lo) {
    for (std::string_view c : clauses(lo)) {
      if (!contains_any(c, {"copy of", "copies of", "own copy", "copied into", "copied to"})) continue;
      if (!contains_any(c, {"data", "dataset", "corpus", "features", "samples"})) continue;
      if (!contains_any(c, {"each ", "every ", "per ", "all processes", "all workers", "all ranks"})) continue;
      if (!contains_any(c, {"process", "rank", "worker", "gpu"})) continue;
      if (!contains_any(c, {"into memory", "in memory", "into the memory", "in the memory", " ram", "host memory",
                            "cpu memory", "system memory"})) {
        continue;
      }
      if (gpu_memory_named(c) || contains_any(c, {"not ", "n't", "?", "instead", "avoid"})) continue;
      return true;
    }
    return false;
  }

  // A whole dataset read into the host's memory, in `lo` (a line, ASCII-lowercased): in one clause a
  // whole dataset named (whole_data_named()), the host's memory as its place and a verb of loading
  // or keeping: "inference.py first loads all image files into the memory", "the whole dataset is
  // loaded in RAM", "the script keeps features for the complete dataset in RAM instead of
  // streaming them". Not where a GPU is the place ("the whole dataset on the GPU"), not denied or
  // asked, not advice or a fact (it fits, it is small, memory-mapped, faster, recommended, a flag
  // set), not what is avoided ("streaming instead of loading the whole dataset"). zh as below.
  static bool whole_data_in_host_memory(std::string_view lo) {
    // zh: 数据 / 图片 / 图像 / 样本 / 文件 (data, images, samples, files) with 全部 / 所有 / 一次性 (all, at
    // once), 加载 / 读 / 载入 / load (loaded, read) and 内存 (the host's memory), not 显存 (the GPU's).
    auto zh = [&](std::initializer_list<const char*> ws) {
      return std::any_of(ws.begin(), ws.end(), [&](const char* w) { return lo.find(w) != std::string_view::npos; });
    };
    if (zh({"\xe6\x95\xb0\xe6\x8d\xae", "\xe5\x9b\xbe\xe7\x89\x87", "\xe5\x9b\xbe\xe5\x83\x8f",
            "\xe6\xa0\xb7\xe6\x9c\xac", "\xe6\x96\x87\xe4\xbb\xb6"}) &&
        zh({"\xe5\x85\xa8\xe9\x83\xa8", "\xe6\x89\x80\xe6\x9c\x89", "\xe4\xb8\x80\xe6\xac\xa1\xe6\x80\xa7"}) &&
        zh({"\xe5\x8a\xa0\xe8\xbd\xbd", "\xe8\xaf\xbb", "\xe8\xbd\xbd\xe5\x85\xa5", "load"}) &&
        zh({"\xe5\x86\x85\xe5\xad\x98"}) && !zh({"\xe6\x98\xbe\xe5\xad\x98"}) &&
        !zh({"\xe6\x8f\x90\xe5\x8d\x87", "\xe5\x8a\xa0\xe5\xbf\xab", "\xe5\xbb\xba\xe8\xae\xae", "\xe5\x8f\xaf\xe4\xbb\xa5",
             "\xef\xbc\x9f", "?", "\xe4\xb8\x8d\xe6\x98\xaf", "\xe6\x89\x8d"})) {
      return true;  // not 提升 / 加快 (speeds up), 建议 / 可以 (advice), a question, 不是 (is not), 才 (only)
    }
    for (std::string_view clause : clauses(lo)) {
      auto has_text = [&](std::string_view s) { return clause.find(s) != std::string_view::npos; };
      if (!whole_data_named(clause)) continue;
      const bool place = has_text("in memory") || has_text("into memory") || has_text("into the memory") ||
                         has_text("in the memory") || contains_word(clause, "ram") || host_memory_named(clause) ||
                         has_text("memoryerror");
      if (!place) continue;
      // Not the GPU's memory, not denied, not the whole data named as what is avoided ("streaming
      // instead of loading the whole dataset into RAM"; "kept in RAM instead of streamed" is the
      // trouble).
      const size_t instead = clause.find("instead of");
      const size_t whole_at = std::min({clause.find("whole"), clause.find("entire"), clause.find("all "), clause.find("every"),
                                        clause.find("complete")});
      // (A question needs no '?': "How much RAM does it need to load all training data.")
      const std::string_view opening = clause.substr(std::min(clause.find_first_not_of(' '), clause.size()));
      bool question = false;
      for (std::string_view q : {"how ", "what ", "why ", "is there", "does ", "do ", "can ", "could ", "should ", "which "}) {
        question = question || opening.substr(0, q.size()) == q;
      }
      if (gpu_memory_named(clause) || contains_word(clause, "gpu") || contains_word(clause, "device") ||
          has_text("not ") || has_text("n't") || apostrophe_less_denial(clause) || has_text("?") || question ||
          (instead != std::string_view::npos && instead < whole_at)) {
        continue;
      }
      // Held there by a verb of loading or keeping ("all images are resized in memory" holds none).
      const bool held = std::any_of(std::begin(kHeldVerbs), std::end(kHeldVerbs),
                                    [&](std::string_view v) { return contains_word_start(clause, v); });
      if (!held) continue;
      // Advice or a fact rather than the trouble: it fits (not "won't fit"), it is memory-mapped, it
      // is small ("is only 2 GB", "for small datasets"), it makes things faster, it is recommended,
      // a flag set ("set cache_images=True").
      const size_t lead = std::min(clause.find_first_not_of(' '), clause.size());
      const bool fits = (contains_word(clause, "fit") || contains_word(clause, "fits")) && !has_text("n't fit") &&
                        !has_text("not fit") && !has_text("wont fit") && !has_text("doesnt fit");
      const bool advice = fits || has_text("mapped") || has_text("memory-map") || has_text("mmap") || has_text("is only") || has_text("are only") ||
                          has_text("only takes") || has_text("only about") || contains_word(clause, "faster") ||
                          contains_word_start(clause, "speed") || has_text("you can") || has_text("you could") ||
                          has_text("recommend") || has_text("should") || has_text("by default") ||
                          contains_word(clause, "small") || has_text("=true") || has_text("cache_") ||
                          clause.substr(lead, 4) == "set ";
      if (!advice) return true;
    }
    return false;
  }
  static constexpr std::string_view kHeldVerbs[] = {"load", "read", "kept", "keep", "stor", "held", "hold",
                                                    "put", "preload", "live", "sit", "decod", "materializ", "cach"};

  // A whole dataset named in `clause`: a data noun where a word starts (data, dataset, image,
  // file, sample, corpus, training set, audio, video, frame, ".npy", csv, json, row, feature,
  // tensor, array, mask, label, annotation, text, line, shard, example, ...) with a word of wholeness
  // (whole, entire, all, every, complete, full) among the three words before it ("all the training
  // data", "every image", "the complete dataset"), or "entirely" after it ("the dataset is loaded
  // entirely into memory").
  static bool whole_data_named(std::string_view clause) {
    for (std::string_view noun : {"data", "image", "file", "sample", "corpus", "training set", "audio", "video", "frame",
                                  ".npy", "csv", "json", "parquet", "wav", "clip", "record", "row", "point cloud", "feature",
                                  "tensor", "array", "train", "mask", "label", "annotation", "caption", "pair", "text", "line",
                                  "shard", "example"}) {
      for (size_t p = clause.find(noun); p != std::string_view::npos; p = clause.find(noun, p + 1)) {
        if (noun != ".npy" && !word_starts_at(clause, p)) continue;
        // "train" the split ("train2017", "the train set"), not "training"; not the noun of a
        // model's part ("all text encoders", "every image model").
        const size_t after = p + noun.size();
        if (noun == "train" && after < clause.size() && is_alpha(clause[after])) continue;
        size_t next = after;
        while (next < clause.size() && is_alpha(clause[next])) ++next;
        const std::string_view then = clause.substr(next, 12);
        if (then.substr(0, 8) == " encoder" || then.substr(0, 6) == " model" || then.substr(0, 8) == " weights" ||
            then.substr(0, 6) == " layer") {
          continue;
        }
        if (clause.substr(p).find("entirely") != std::string_view::npos) return true;
        // The three words before the noun.
        size_t from = p, words = 0;
        while (from > 0 && words < 4) {
          --from;
          if (clause[from] == ' ') ++words;
        }
        const std::string_view before = clause.substr(from, p - from);
        for (std::string_view q : {"whole", "entire", "all", "every", "complete", "full"}) {
          if (contains_word(before, q)) return true;
        }
      }
    }
    return false;
  }

  // A chat's context growing turn by turn, told in words: "CUDA out of memory after few messages in
  // the chat", "with each successive prompt, another 200-400MB of VRAM is used", "memory goes up
  // with every turn of the conversation"; zh 多轮对话后显存爆掉 (after many rounds of dialogue the
  // GPU memory blew up), 随着不断交互，显存逐步增加 (the memory rises with each interaction). A chat
  // front-end sends the whole history with every reply, so the sequence (and the KV cache
  // generate() builds for it) grows each turn until the context limit: a generation-length
  // cause, not a leak. Needs a turn counted: "each" / "every" / "successive" / "per" before a
  // message, turn, reply or interaction (a prompt, response, round or question too where a chat is
  // named or the turns are "successive") with more memory told (growth, "another 300MB"); "after a
  // few / several / many" such turns with more memory or a failure; or "multi-turn" / a chat's
  // history with growth told and no training data named ("long multi-turn rollouts spike the
  // activation memory" is no history grown; "each prompt is 2000 tokens" is no growth).
  static bool chat_context_grows(std::string_view lo) {
    auto any = [&](std::initializer_list<std::string_view> ps) { return contains_any(lo, ps); };
    // zh: 多轮 / 几轮 (many / several rounds) with 对话 / 聊天 (dialogue / chat), or 交互 / 对话 / 聊天 with 增加,
    // 越来越, 逐步, 不断, 上涨, 增长 (rises, more and more, step by step, keeps, goes up, grows).
    const bool zh_rounds = any({"\xe5\xa4\x9a\xe8\xbd\xae", "\xe5\x87\xa0\xe8\xbd\xae"}) &&
                           any({"\xe5\xaf\xb9\xe8\xaf\x9d", "\xe8\x81\x8a\xe5\xa4\xa9"});
    const bool zh_grows = any({"\xe4\xba\xa4\xe4\xba\x92", "\xe5\xaf\xb9\xe8\xaf\x9d", "\xe8\x81\x8a\xe5\xa4\xa9"}) &&
                          any({"\xe5\xa2\x9e\xe5\x8a\xa0", "\xe8\xb6\x8a\xe6\x9d\xa5\xe8\xb6\x8a",
                               "\xe9\x80\x90\xe6\xad\xa5", "\xe4\xb8\x8d\xe6\x96\xad", "\xe4\xb8\x8a\xe6\xb6\xa8",
                               "\xe5\xa2\x9e\xe9\x95\xbf"});
    const bool zh_memory = lo.find("oom") != std::string_view::npos ||
                           std::any_of(std::begin(kZhMemoryWords), std::end(kZhMemoryWords),
                                       [&](std::string_view w) { return lo.find(w) != std::string_view::npos; });
    if ((zh_rounds || zh_grows) && zh_memory) return true;
    // Growth told on the line ("grows", "goes up"), not only memory named: "long multi-turn RL
    // rollouts spike the trainer's activation memory" names turns and memory, no history growing.
    const bool grows = any({"grow", "increas", "goes up", "went up", "climb", "rises", "rising", "keeps going up"});
    // Not turns of training data ("we train on multi-turn dialogue data").
    const bool training = contains_word_start(lo, "train") || contains_word_start(lo, "dataset");
    if (grows && !training &&
        any({"multi-turn", "multi turn", "multi-round", "multiple turns", "chat history", "conversation history",
             "dialogue history", "dialog history"})) {
      return true;
    }
    // A chat named on the line: then a prompt, a response, a round or a question is a turn too.
    const bool chat = any({"chat", "conversation", "dialog", "bot ", "bot,", "assistant", "kobold", "tavern"});
    // More memory each turn: growth told, or "another 300MB" / "more VRAM" per turn.
    const bool more = grows || any({"more memory", "more vram", "more and more"}) ||
                      ((contains_word(lo, "another") || contains_word(lo, "adds") || contains_word(lo, "added")) &&
                       any({"mb", "gb", "memory", "vram"}));
    const bool failed = any({"oom", "out of memory", "crash", "runs out", "run out", "ran out"});
    static constexpr std::string_view kEach[] = {"each ", "every ", "successive ", "per "};
    static constexpr std::string_view kAfter[] = {"after a few ", "after few ", "after some ", "after several ",
                                                  "after many ", "after a couple of "};
    static constexpr std::string_view kChatTurns[] = {"message", "turn", "reply", "replies", "interaction", "exchange",
                                                      "conversation"};
    static constexpr std::string_view kTurns[] = {"prompt", "response", "round", "question"};
    auto turn_after = [&](std::string_view o) {
      for (size_t p = lo.find(o); p != std::string_view::npos; p = lo.find(o, p + 1)) {
        if (!word_starts_at(lo, p)) continue;
        std::string_view rest = lo.substr(p + o.size());
        bool strong = o == "successive ";
        for (std::string_view filler : {"successive ", "new ", "chat ", "subsequent ", "following "}) {
          if (rest.substr(0, filler.size()) == filler) {
            strong = strong || filler == "successive " || filler == "chat ";
            rest.remove_prefix(filler.size());
          }
        }
        auto starts = [&](std::string_view t) { return rest.substr(0, t.size()) == t; };
        if (std::any_of(std::begin(kChatTurns), std::end(kChatTurns), starts)) return true;
        // (A set or batch of prompts is no turn: "with each iteration/successive prompt set", a loop over inputs.)
        auto turn_word = [&](std::string_view t) {
          if (!starts(t)) return false;
          std::string_view next = rest.substr(t.size());
          if (!next.empty() && next.front() == 's') next.remove_prefix(1);
          return next.rfind(" set", 0) != 0 && next.rfind(" batch", 0) != 0;
        };
        if ((chat || strong) && std::any_of(std::begin(kTurns), std::end(kTurns), turn_word)) return true;
      }
      return false;
    };
    for (std::string_view o : kEach) {
      if (more && turn_after(o)) return true;
    }
    for (std::string_view o : kAfter) {
      if ((more || failed) && turn_after(o)) return true;
    }
    return false;
  }

  // Batch size 1 as written in settings and sentences ("batch_size=1", "bs=1", "batch size of 1").
  static constexpr std::string_view kBatchOne[] = {"batch size 1",    "batch size of 1", "batch_size=1",
                                                   "batch_size 1",    "batch size = 1",  "bs=1",
                                                   "batch size is 1", "batch_size = 1",  "batch_size: 1",
                                                   "batch size to 1", "batch_size to 1", "batch size of one",
                                                   // told small in other words ("batch size as small as just 1")
                                                   "batch size as small as 1", "batch size as small as just 1",
                                                   "batch size as low as 1", "batch size down to 1", "batch size of just 1",
                                                   "batch size of only 1", "batch size just 1", "batch size only 1",
                                                   // told as where it already stands, the floor reached ("For testing
                                                   // batch size is already 1")
                                                   "batch size is already 1", "batch size was already 1", "batch size already 1",
                                                   // the batch's name as one word ("even batchsize=1 can't run")
                                                   "batchsize=1", "batchsize = 1", "batchsize 1", "batchsize of 1", "batchsize is 1",
                                                   "batchsize to 1"};
  // A sentence of `lo` (lower-cased) that trains with the defaults on one GPU: "default settings /
  // config / parameters / hyperparameters" and one GPU ("single GPU", "one GPU", "1 GPU", "single
  // card", or "a single" / "only one" / "one" right before a GPU's name, "nvidia" aside: "a single
  // TITAN X"), a word of training. Not with several GPUs or nodes named ("on 4 GPUs, only one GPU
  // runs out", "a single node with 8 GPUs"), the defaults changed or not used ("I changed the default
  // settings", "I didn't use the default config"), asked, supposed or told to work (success_told()).
  static bool default_settings_on_one_gpu(std::string_view lo) {
    static constexpr std::string_view kDefaults[] = {"default setting", "default config", "default param", "default hyperparam"};
    for (std::string_view sen : sentences(lo)) {
      const size_t d = std::min({sen.find(kDefaults[0]), sen.find(kDefaults[1]), sen.find(kDefaults[2]), sen.find(kDefaults[3])});
      if (d == std::string_view::npos || !contains_word_start(sen, "train") || sen.find('?') != std::string_view::npos ||
          contains_word(sen, "if") || contains_word(sen, "gpus") || contains_word(sen, "nodes") ||
          contains_word_start(sen, "multi") || clause_negated(sen) || contains_word(sen, "never") || success_told(sen) ||
          contains_any(sen.substr(0, d), {"chang", "modif", "reduc", "lower", "n't", "not ", "instead of", "rather than"})) {
        continue;
      }
      // (Whole words: "21 gpu hours" is no single GPU.)
      for (std::string_view one_gpu : {"single gpu", "one gpu", "1 gpu", "single card", "one card"}) {
        if (contains_word(sen, one_gpu)) return true;
      }
      for (std::string_view one : {"a single ", "only one ", "one "}) {
        for (size_t p = sen.find(one); p != std::string_view::npos; p = sen.find(one, p + 1)) {
          if (!word_starts_at(sen, p)) continue;
          std::string_view next = sen.substr(p + one.size());
          if (next.substr(0, 7) == "nvidia ") next.remove_prefix(7);
          // (The GPU's name in the next two words: "a single TITAN X", "one RTX 3090", "one A100".)
          const std::vector<std::string_view> w = leading_words(next, 2);
          if (!w.empty() && gpu_named(next.substr(0, static_cast<size_t>(w.back().data() - next.data()) + w.back().size()))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  // Where an OOM message's own words start on the lower-cased line `lo`: the token holding the first
  // "error" or "exception" in the 40 characters before "out of memory" ("... comes out with
  // RuntimeError: CUDA out of memory", "RuntimeError: CUDA error: out of memory"), else "out of
  // memory" itself with a "cuda " / "gpu " just before it; npos without "out of memory".
  static size_t message_head(std::string_view lo) {
    const size_t m = lo.find("out of memory");
    if (m == std::string_view::npos) return std::string_view::npos;
    const size_t from = m >= 40 ? m - 40 : 0;
    size_t h = std::min(lo.substr(from, m - from).find("error"), lo.substr(from, m - from).find("exception"));
    h = h == std::string_view::npos ? m : from + h;
    if (h == m) {
      for (std::string_view w : {"cuda ", "gpu "}) {
        if (h >= w.size() && lo.substr(h - w.size(), w.size()) == w) h -= w.size();
      }
    }
    // (Back to the token's start: a space, a quote or a bracket before it, or a byte of a character
    // beyond ASCII, as Chinese prose runs into the message with no space: "会导致torch.cuda.OutOfMemoryError".)
    while (h > 0 && lo[h - 1] != ' ' && lo[h - 1] != '`' && lo[h - 1] != '(' && lo[h - 1] != '"' && lo[h - 1] != '\'' &&
           static_cast<unsigned char>(lo[h - 1]) < 0x80) {
      --h;
    }
    return h;
  }

  // The batch lowered to 1 with words between, in one clause: "I tried to reduce the batch size of the
  // inference to just 1, but is not enough", "lowered the batch size for training down to 1, still OOM".
  // The batch's name, then within 48 characters and before any ",", ";" or " and " (not another
  // setting's "... and num_workers to 1") "to" / "down to" (fillers "just", "only" aside) and 1 as a
  // count of its own (not "1.5", "16", "1 gb"); the failure told going on in that sentence ("but",
  // "still", "not enough", "fails", "OOM" ...). Not asked ('?', "should I") nor supposed ("if") in the
  // clause, nor suggested, nor told working ("... to 1 solved it", "and now it works").
  static bool batch_lowered_to_one(std::string_view lo) {
    // (Cheap first: the line read on only where "to 1" / "to just 1" / "to only 1" / "to a mere 1" is.)
    if (lo.find("to 1") == std::string_view::npos && lo.find("to just 1") == std::string_view::npos &&
        lo.find("to only 1") == std::string_view::npos && lo.find("to a mere 1") == std::string_view::npos) {
      return false;
    }
    const std::vector<std::string_view> sens = sentences(lo);
    for (size_t b = lo.find("batch"); b != std::string_view::npos; b = lo.find("batch", b + 5)) {
      const std::string_view c = clause_at(lo, b);
      if (c.find('?') != std::string_view::npos || contains_word(c, "if") || contains_any(c, {"should i", "suggest"})) continue;
      std::string_view sentence;
      for (std::string_view s : sens) {
        if (s.data() <= lo.data() + b && lo.data() + b < s.data() + s.size()) sentence = s;
      }
      if (success_told(sentence) || contains_word(sentence, "works") || contains_word(sentence, "worked") ||
          contains_word(sentence, "solved") || contains_word(sentence, "fixed") || contains_word(sentence, "helped") ||
          contains_word(sentence, "fits") ||
          !contains_any(sentence, {"but ", "still", "not enough", "n't enough", "fail", "can't", "cannot", "crash", "oom",
                                   "out of memory", "error", "did not help", "didn't help", "no luck", "same"})) {
        continue;
      }
      std::string_view after = lo.substr(b + 5, 48);
      for (std::string_view sep : {",", ";", " and "}) {
        if (const size_t cut = after.find(sep); cut != std::string_view::npos) after = after.substr(0, cut);
      }
      if (!contains_any(lo.substr(b > 24 ? b - 24 : 0, b > 24 ? 24 : b), {"reduc", "lower", "decreas", "cut", "drop", "brought",
                                                                         "bring", "shrink", "shrank", "set"}) &&
          !contains_any(after, {"reduc", "lower", "decreas", "cut", "drop", "down"})) {
        continue;
      }
      for (size_t t = after.find("to "); t != std::string_view::npos; t = after.find("to ", t + 3)) {
        if (t > 0 && word_char(after[t - 1])) continue;
        std::string_view rest = after.substr(t + 3);
        for (std::string_view filler : {"just ", "only ", "a mere "}) {
          if (rest.substr(0, filler.size()) == filler) rest.remove_prefix(filler.size());
        }
        if (rest.empty() || rest[0] != '1') continue;
        if (rest.size() > 1 && (is_digit(rest[1]) || ((rest[1] == '.' || rest[1] == ',') && rest.size() > 2 && is_digit(rest[2])) ||
                                is_alpha(rest[1]))) {
          continue;
        }
        const std::string_view unit = trim_view(rest.substr(1, 8));
        if (contains_any(unit, {"gb", "mb", "gib", "mib", "epoch", "step", "%"})) continue;
        return true;
      }
    }
    return false;
  }

  // Batch size 1 told through a pronoun, the batch size named earlier in the sentence: "My first idea
  // was decreasing batch size, but it is already 1", "I'd lower the batch size but it's already at 1,
  // so that is no option". "it" a word of its own ("the limit is already 1.5 GB" is none), the 1 a
  // count of its own (not "1.5", "1e-5", "1,024", "1 epoch", "1 gb"). Not asked ('?') nor supposed
  // ("if") in that sentence.
  static bool batch_one_by_pronoun(std::string_view lo) {
    for (std::string_view sen : sentences(lo)) {
      const size_t b = std::min(sen.find("batch size"), sen.find("batch_size"));
      if (b == std::string_view::npos || sen.find('?') != std::string_view::npos || contains_word(sen, "if")) continue;
      for (std::string_view k : {"it is already 1", "it's already 1", "it was already 1", "it is already at 1",
                                 "it's already at 1", "it was already at 1", "it is already set to 1", "it's already set to 1",
                                 "it was already set to 1"}) {
        for (size_t p = sen.find(k, b); p != std::string_view::npos && p - b <= 80; p = sen.find(k, p + 1)) {
          if (!word_starts_at(sen, p)) continue;
          const size_t e = p + k.size();
          std::string_view after = sen.substr(e);
          if (!after.empty() && (after.front() == '.' || after.front() == ',') && after.size() > 1 && is_digit(after[1])) continue;
          if (!after.empty() && (is_alpha(after.front()) || is_digit(after.front()) || after.front() == '%' ||
                                 after.front() == '/' || after.front() == '-' || after.front() == ':')) {
            continue;  // "1/8 of the default", "1-2", "1:1"
          }
          after = trim_view(after);
          bool unit = false;
          for (std::string_view u : {"epoch", "hour", "minute", "second", "sec", "step", "iteration", "iter", "day", "gb", "gib",
                                     "mb", "mib", "%", "x ", "k ", "m ", "token"}) {
            unit = unit || after.substr(0, u.size()) == u;
          }
          if (!unit) return true;
        }
      }
    }
    return false;
  }
  // Batch size 1 only asked about, supposed or not wanted where each of its phrases stands ("Should I
  // try a batch size as small as 1?", "I do not want to go down to batch size 1, that would be too
  // slow", "if I set batch size 1"): no run at batch 1 told.
  static bool batch_one_untried(std::string_view lo) {
    bool any = false;
    for (std::string_view k : kBatchOne) {
      for (size_t p = lo.find(k); p != std::string_view::npos; p = lo.find(k, p + 1)) {
        // The words just before it in its clause ("Should I try a", "if I set", "I do not want to go
        // down to"), not a supposition further back ("But if I use my data, even though I reduce the
        // batch size to 1 it throws").
        const std::string_view clause = clause_at(lo, p);
        const size_t in_clause = p - static_cast<size_t>(clause.data() - lo.data());
        const std::string_view before = clause.substr(in_clause > 30 ? in_clause - 30 : 0, std::min<size_t>(in_clause, 30));
        // ("even if I set batch size 1" concedes it was tried.)
        const bool supposed = contains_word(before, "if") && before.find("even if") == std::string_view::npos;
        // (Nor advice not yet followed: "The maintainers suggested lowering the batch size down to 1,
        // which I did not try yet".)
        if (!asked_at(lo, p) && !supposed &&
            !contains_any(before, {"want", "would", "should", "could", "haven't", "have not", "not yet", "instead of",
                                   "rather than", "suggest", "recommend", "advis"}) &&
            !contains_any(clause_at(lo, p), {"did not try", "didn't try", "not tried", "not try"})) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }
  // Batch size 1 told to work, in the piece of the line that holds it (split at ". ", "; ", " but ",
  // ", "): "batch_size=1 worked for me", "with batch size 1 it works, but batch size 2 gives CUDA
  // OOM", "batch_size=1 works even on my 8GB card"; "works" as a word (not "workstation"); or in the
  // piece after one that opens with "when" / "after" / "once" / "by" ("When I reduced the batch size
  // to 1, it can work"), no failure told in the rest of the clause. Not where that piece tells a
  // failure ("even batch size 1 fails", "batch size 1 doesn't work") or a trial ("I tried to see if it
  // works with bs=1, but no success"), nor asks ('?').
  // An amount of memory per repeat of the work on the lower-cased line `lo` ("goes up by about 50MB
  // per batch", "increases by 200MB per request"): a size (size_named()) just before "per", the
  // repeat's noun a word of its own after it (not "samples per batch", "memory per batch size", which
  // tell the batch's size).
  static bool memory_per_repeat(std::string_view lo) {
    for (size_t p = lo.find("per "); p != std::string_view::npos; p = lo.find("per ", p + 4)) {
      if (!word_starts_at(lo, p) || !size_named(lo.substr(p >= 16 ? p - 16 : 0, p >= 16 ? 16 : p), true)) continue;
      for (std::string_view noun : {"batch", "forward", "call", "request", "image", "sample", "prompt", "inference",
                                    "query", "file", "video"}) {
        const size_t q = p + 4;
        if (lo.compare(q, noun.size(), noun) != 0) continue;
        size_t e = q + noun.size();
        if (e < lo.size() && (lo[e] == 's' || lo[e] == 'e')) ++e;  // ("per requests", "per batches")
        if (e < lo.size() && lo[e] == 's') ++e;
        if ((e >= lo.size() || !word_char(lo[e])) && lo.compare(e, 5, " size") != 0) return true;
      }
    }
    return false;
  }

  // The memory's own phrase ("the memory of each worker", "RAM usage of ...") as the subject `subject`
  // of a rise: the last such phrase with no other verb nor measure after it ("The memory of each worker
  // is about 2 GB and the validation loss goes up every epoch" is the loss's rise).
  static bool memory_of_is_subject(std::string_view subject) {
    size_t of_end = std::string_view::npos;
    size_t last = 0;
    for (std::string_view m : {"memory of ", "memory usage of ", "memory use of ", "ram of ", "vram of ",
                               "memory consumption of ", "memory footprint of "}) {
      const size_t q = subject.rfind(m);
      if (q != std::string_view::npos && (of_end == std::string_view::npos || q > last)) last = q, of_end = q + m.size();
    }
    return of_end != std::string_view::npos &&
           !contains_any(subject.substr(of_end), {" and ", " is ", " was ", " are ", " were ", "loss", "accuracy",
                                                  "learning rate", "speed", "latency", "perplexity", "reward", "score",
                                                  "throughput", "norm"});
  }

  // "runs" as the run going on, not "runs out (of memory)". `t` is lower case.
  static bool runs_told(std::string_view t) {
    for (size_t p = t.find("runs"); p != std::string_view::npos; p = t.find("runs", p + 4)) {
      if (is_word_at(t, p, 4) && t.compare(p + 4, 4, " out") != 0) return true;
    }
    return false;
  }
  // A footprint measured at the setting ("bs=1 takes 18GB", "uses 9.5 GB"): a size (size_named()) right
  // after the verb; the run went that far.
  static bool footprint_measured(std::string_view t) {
    for (std::string_view v : {"takes ", "uses ", "used ", "took ", "needs "}) {
      for (size_t p = t.find(v); p != std::string_view::npos; p = t.find(v, p + 1)) {
        const size_t e = p + v.size();
        if (word_starts_at(t, p) && e < t.size() && is_digit(t[e]) && size_named(t.substr(e, 12), true)) return true;
      }
    }
    return false;
  }
  static bool batch_one_worked(std::string_view lo) {
    for (std::string_view clause : clauses(lo)) {
      // Batch size 1 told as the one setting that keeps the OOM away ("I set the micro batch size to 1,
      // as it was the only value that did not cause an OOM exception", "a batch size of 1 was the only
      // value to prevent OOM errors"): it runs at 1, the batch decides. Read over the whole clause (its
      // comma-pieces below may split the two), not where it tells it failing still or even so.
      const bool avoided = failure_avoided(clause) && !contains_word(clause, "still") && !contains_word(clause, "even");
      for (size_t from = 0; from <= clause.size();) {
        const size_t comma = std::min(clause.find(", ", from), clause.size());
        const std::string_view piece = clause.substr(from, comma - from);
        from = comma + 2;
        if (!std::any_of(std::begin(kBatchOne), std::end(kBatchOne),
                         [&](std::string_view k) { return piece.find(k) != std::string_view::npos; }) &&
            !batch_one_named(piece)) {
          continue;
        }
        auto failed_in = [&](std::string_view t) {
          return contains_word_start(t, "fail") || contains_word_start(t, "error") || contains_word_start(t, "crash") ||
                 contains_word_start(t, "oom") || t.find("out of memory") != std::string_view::npos ||
                 t.find("not ") != std::string_view::npos || t.find("n't") != std::string_view::npos ||
                 contains_word(t, "cannot") || contains_word(t, "unable");
        };
        // A trial, not a result ("I tried to see if it works with bs=1, but no success").
        auto trial_in = [&](std::string_view t) {
          return contains_word(t, "if") || contains_word(t, "tried") || contains_word(t, "try") ||
                 contains_word(t, "trying") || contains_word(t, "whether") || t.find('?') != std::string_view::npos;
        };
        const bool failed = failed_in(piece);
        // Also batch size 1 told as the fix ("Micro batch size 1 fixed it", "--micro-batch-size 1 solved it").
        // The piece that opens with "when" / "after" / "once" / "by" ("When I reduced the batch size to
        // 1, it can work") has its result in the piece after it, read the same way.
        auto worked_in = [&](std::string_view t) {
          return contains_word(t, "works") || contains_word(t, "worked") || contains_word(t, "working") ||
                 contains_any(t, {"can work", "does work", "did work"}) || contains_word(t, "fits") ||
                 contains_word(t, "fit") || contains_word(t, "fixed") || contains_word(t, "solved") ||
                 contains_word(t, "resolved") || success_told(t) || contains_word(t, "trains") || contains_word(t, "trained") ||
                 runs_told(t) || footprint_measured(t);
        };
        // (Or an epoch's time told in the clause: "With batch size = 1, an epoch takes 4 hrs".)
        bool worked = (worked_in(piece) || epoch_time_told(clause)) && !contains_word(piece, "cpu");
        // (Also "only when": "Only when I set batchsize to 1 and image_size=224, it works"; not a run on
        // the CPU, "only when I run with batch_size=1 on the CPU, it works", which says nothing of the GPU.)
        std::string_view opener = trim_view(piece);
        if (opener.rfind("only ", 0) == 0) opener.remove_prefix(5);
        opener = opener.substr(0, 6);
        if (!worked && from < clause.size() && !contains_word(piece, "cpu") &&
            (opener.rfind("when ", 0) == 0 || opener.rfind("after ", 0) == 0 || opener.rfind("once ", 0) == 0 ||
             opener.rfind("by ", 0) == 0)) {
          const size_t next_comma = std::min(clause.find(", ", from), clause.size());
          const std::string_view next = clause.substr(from, next_comma - from);
          worked = worked_in(next) && !failed_in(clause.substr(from)) && !trial_in(next);
        }
        const bool trial = trial_in(piece) || clause.find("no success") != std::string_view::npos ||
                           clause.find("without success") != std::string_view::npos ||
                           clause.find("no luck") != std::string_view::npos;
        if (worked && !failed && !trial) return true;
        if (avoided && !trial) return true;
      }
    }
    return false;
  }

  // An epoch's or a step's time told ("With batch size = 1, an epoch takes 4 hrs", "each step took 3 s") or
  // a speed per iteration ("runs at 3.2 s/it"): the run goes on at that setting. "takes" / "took" / "is
  // taking" then a number and a unit of time, the epoch, step or iteration its subject.
  static bool epoch_time_told(std::string_view t) {
    // (A speed told per iteration, "runs at 3.2 s/it", is the run going on as well.)
    if (contains_any(t, {" s/it", "s/it,", "it/s"})) return true;
    if (!contains_word_start(t, "epoch") && !contains_word_start(t, "step") && !contains_word_start(t, "iteration")) {
      return false;
    }
    for (std::string_view verb : {"takes ", "took ", "is taking ", "was taking "}) {
      for (size_t v = t.find(verb); v != std::string_view::npos; v = t.find(verb, v + 1)) {
        // The epoch, step or iteration the time's subject, within the 16 characters before the verb ("an epoch
        // takes 4 hrs"; not "each run took 5 minutes to load the checkpoint ... at the very first step").
        const std::string_view subject = t.substr(v >= 16 ? v - 16 : 0, v >= 16 ? 16 : v);
        if (!contains_any(subject, {"epoch", "step", "iteration", " iter"})) continue;
        size_t d = v + verb.size();
        for (std::string_view filler : {"about ", "around ", "almost ", "over ", "roughly ", "approximately ", "~"}) {
          if (t.compare(d, filler.size(), filler) == 0) d += filler.size();
        }
        size_t e = d;
        while (e < t.size() && (is_digit(t[e]) || t[e] == '.')) ++e;
        if (e == d) continue;
        if (e < t.size() && t[e] == ' ') ++e;
        for (std::string_view unit : {"h", "hr", "hrs", "hour", "hours", "min", "mins", "minute", "minutes", "s", "sec", "secs",
                                      "second", "seconds", "day", "days"}) {
          if (t.compare(e, unit.size(), unit) == 0 && (e + unit.size() >= t.size() || !is_alpha(t[e + unit.size()]))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  // The failure told kept away, not met: "did not cause an OOM", "without running out of memory",
  // "avoids the out-of-memory error", "the only value to prevent OOM errors": the avoiding words, then
  // within 24 characters a word of the failure (OOM, out of memory, an error, a crash). A purpose
  // ("to prevent", "to avoid") is a result only as the one setting that does it, "only" in the piece
  // ("I set it to 1 to avoid OOM errors, but it still fails" is an attempt).
  static bool failure_avoided(std::string_view piece) {
    for (std::string_view w : {"did not cause", "didn't cause", "does not cause", "doesn't cause", "not causing",
                               "without causing", "without", "to prevent", "prevents", "prevented", "to avoid", "avoids",
                               "avoided"}) {
      const bool purpose = w.rfind("to ", 0) == 0;
      if (purpose && !contains_word(piece, "only")) continue;
      for (size_t p = piece.find(w); p != std::string_view::npos; p = piece.find(w, p + 1)) {
        if (!word_starts_at(piece, p)) continue;
        // Denied or made impossible before it: "I can't run batch size 1 without getting an OOM", "has
        // not prevented the OOM errors".
        const std::string_view before = piece.substr(0, p);
        if (contains_any(before, {"not ", "n't ", "cannot ", "unable ", "never "})) continue;
        const std::string_view then = piece.substr(p + w.size(), 24);
        const bool memory = contains_word_start(then, "oom") || then.find("out of memory") != std::string_view::npos ||
                            then.find("out-of-memory") != std::string_view::npos ||
                            then.find("running out") != std::string_view::npos;
        // "without" keeps only the memory's failure away: "killed without any error message" is a failure.
        if (memory || (w != "without" && (contains_word_start(then, "error") || contains_word_start(then, "crash")))) {
          return true;
        }
      }
    }
    return false;
  }

  // The convolution algorithm a library picks told as what takes the memory, in a sentence that does
  // not ask nor deny (denied_or_asked(), "cudnn.benchmark = False"), on a line that names the memory
  // (memory, VRAM, RAM, workspace, OOM): the algorithm ("algorithm", "algo", the autotuner) with cuDNN, a DNN library's or a convolution's name, and a choice
  // ("selecting", "chooses", "picks", "prefer", "fastest", "smallest", "benchmark"): "CUDA is
  // selecting larger architectures, and I should run set_dnn_prefer_smallest_algorithms()" (dlib),
  // "cudnn picks the fastest algorithm, which needs a lot of memory". Not CUDA alone ("a greedy
  // algorithm to select which layers to move to cuda"). (cuDNN's algorithms differ in their scratch
  // workspace: cudnnGetConvolutionForwardWorkspaceSize; dlib's set_dnn_prefer_smallest_algorithms,
  // PyTorch's torch.backends.cudnn.benchmark.)
  static bool convolution_algorithm_choice_told(std::string_view lo) {
    if (!contains_word(lo, "memory") && !contains_word(lo, "vram") && !contains_word(lo, "ram") &&
        lo.find("workspace") == std::string_view::npos && !contains_word_start(lo, "oom")) {
      return false;
    }
    for (std::string_view sen : sentences(lo)) {
      if ((sen.find("algo") == std::string_view::npos && sen.find("autotun") == std::string_view::npos) ||
          denied_or_asked(sen) || contains_any(sen, {"= false", "=false"})) {
        continue;
      }
      // (A convolution's own words, not "converges", "conversation", "convert".)
      if (!contains_any(sen, {"cudnn", "dnn", "convolution", "conv1d", "conv2d", "conv3d"}) && !contains_word(sen, "conv") &&
          !contains_word(sen, "convs")) {
        continue;
      }
      if (contains_any(sen, {"select", "choos", "chose", "pick", "prefer", "fastest", "smallest", "benchmark"})) return true;
    }
    return false;
  }

  // The workspace itself told too large: "too large workspace", "a huge workspace", "the workspace
  // is too big", "workspace of 48 GiB ... too much"; the size word beside "workspace" (at most
  // 20 characters before it, or after it within its clause), not of something else on the line
  // ("the convolution output is huge but the workspace is fine").
  static bool workspace_too_large(std::string_view lo) {
    for (size_t p = lo.find("workspace"); p != std::string_view::npos; p = lo.find("workspace", p + 1)) {
      std::string_view before = lo.substr(p >= 20 ? p - 20 : 0, p >= 20 ? 20 : p);
      for (std::string_view stop : {",", ".", " but ", ";"}) {
        const size_t q = before.rfind(stop);
        if (q != std::string_view::npos) before.remove_prefix(q + stop.size());
      }
      std::string_view after = lo.substr(p + 9, 40);
      for (std::string_view stop : {",", ".", " but ", ";"}) {
        const size_t q = after.find(stop);
        if (q != std::string_view::npos) after = after.substr(0, q);
      }
      for (std::string_view big : {"too large", "too big", "too much", "huge", "large", "big", "enormous"}) {
        if (before.find(big) != std::string_view::npos || after.find(big) != std::string_view::npos) return true;
      }
    }
    return false;
  }

  // Independent runs sharing one GPU, told by their number: "concurrent olmo-eval run processes
  // collide on the same physical GPUs", "two such processes both target physical 0,1 and one
  // OOMs", "running two training jobs on the same GPU", "multiple vllm services on a single card";
  // zh 单卡多服务 / 单卡部署多个模型 (several services / models on one card) with the memory or a failure
  // named (显存不够, 报错OOM), not a question. A job's own ranks are not independent runs: "processes" counts only when
  // concurrent, independent or "such" ("DDP starts multiple processes, all on the same GPU" is
  // every rank on one GPU, a multi-GPU placement).
  static bool runs_share_a_gpu(std::string_view lo) {
    auto any = [&](std::initializer_list<std::string_view> ps) { return contains_any(lo, ps); };
    // zh: 单卡 (one card), 同一张卡 / 同一块卡 / 一张卡 (the same / one card); then 多 (several), 两个 (two) or
    // 第二个 (the second) with 服务 (service), 模型 (model), 实例 (instance) or 进程 (process).
    // Not a question ("？"); the memory or a failure named (kZhMemoryWords, 报错 error, 不够 not enough, oom).
    auto zh_trouble = [&] {
      return lo.find('?') == std::string_view::npos && lo.find("\xef\xbc\x9f") == std::string_view::npos &&
             (any({"\xe6\x8a\xa5\xe9\x94\x99", "\xe4\xb8\x8d\xe5\xa4\x9f", "oom", "out of memory"}) ||
              contains_any(lo, kZhMemoryWords));
    };
    if (any({"\xe5\x8d\x95\xe5\x8d\xa1", "\xe5\x90\x8c\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1",
             "\xe5\x90\x8c\xe4\xb8\x80\xe5\x9d\x97\xe5\x8d\xa1", "\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1"}) &&
        zh_trouble()) {
      for (std::string_view c : {"\xe5\xa4\x9a", "\xe4\xb8\xa4\xe4\xb8\xaa", "\xe7\xac\xac\xe4\xba\x8c\xe4\xb8\xaa"}) {
        for (std::string_view r : {"\xe6\x9c\x8d\xe5\x8a\xa1", "\xe6\xa8\xa1\xe5\x9e\x8b", "\xe5\xae\x9e\xe4\xbe\x8b",
                                   "\xe8\xbf\x9b\xe7\xa8\x8b"}) {
          // The count right before its noun, at most one measure word between ("多个模型", "多服务").
          for (size_t p = lo.find(c); p != std::string_view::npos; p = lo.find(c, p + 1)) {
            const std::string_view after = lo.substr(p + c.size(), r.size() + 3);
            if (after.substr(0, r.size()) == r || (after.size() > 3 && after.substr(3, r.size()) == r)) return true;
          }
        }
      }
    }
    // Not a question, advice or a denial ("Is it possible to run two jobs on one GPU?", "you should
    // not run multiple jobs on the same GPU"), nor runs each on a GPU of its own ("two jobs, each on
    // one GPU", "a single GPU each"), nor runs that went through ("both runs finished fine").
    const bool same_gpu = any({"same gpu", "same physical gpu", "same gpus", "same card", "same device", "one gpu",
                               "single gpu", "one card", "single card", "collide"});
    if (!same_gpu) return false;
    if (lo.find('?') != std::string_view::npos || contains_word(lo, "should") || contains_word(lo, "never") ||
        any({"each on", "each use", "each with", "each have", "each has", "gpu each", "card each", "own gpu", "not run",
             "n't run", "not share", "n't share"}) ||
        success_told(lo)) {
      return false;
    }
    const bool count = contains_word(lo, "two") || contains_word(lo, "2") || contains_word(lo, "both") ||
                       contains_word(lo, "several") || contains_word(lo, "multiple") || contains_word_start(lo, "concurrent") ||
                       contains_word_start(lo, "simultaneous") || lo.find("in parallel") != std::string_view::npos;
    if (!count) return false;
    for (std::string_view r : {"runs", "jobs", "instances", "services", "servers", "experiments", "trainings", "scripts",
                               "programs", "notebooks"}) {
      if (contains_word(lo, r)) return true;
    }
    return contains_word(lo, "processes") && (contains_word_start(lo, "concurrent") || contains_word(lo, "independent") ||
                                              contains_word(lo, "such") || contains_word_start(lo, "simultaneous"));
  }

  // A framework's memory pool taking the GPU from another user of it, told in words: "TensorFlow
  // pre-allocating the entire VRAM by default, leaving no space for PyTorch", "Recent TF breaks JAX
  // on GPU by eating all memory", "JAX preallocates most of the GPU by default, starving the cuda
  // backend", "tensorflow grabs all the memory when it loads the first model, then there is nothing
  // to allocate for the second". TensorFlow maps nearly all of every visible GPU's memory at
  // start-up unless memory growth is set (TensorFlow's guide "Use a GPU", "Limiting GPU memory
  // growth"); XLA/JAX preallocates 75% of it (JAX's "GPU memory allocation",
  // XLA_PYTHON_CLIENT_PREALLOCATE); what is left is all another user of the GPU gets, in the same
  // process or beside it. Three things told on the line: TensorFlow, Keras, JAX or XLA named (as
  // words); the pool (preallocation, or all / most / the entire memory taken: "grabs all the
  // memory", "allocates all GPU memory"); and the other user (a second framework or backend named,
  // or "another", "second", "leaving no space", "starving", "nothing left", ...); not the pool
  // denied ("does not preallocate", "no longer grabs"). The pool
  // alone is how these frameworks work, not a finding ("TensorFlow preallocates the GPU by
  // default").
  static bool pool_takes_gpu_from_another(std::string_view lo) {
    const bool tf = contains_word(lo, "tf") || lo.find("tensorflow") != std::string_view::npos || contains_word(lo, "keras");
    const bool xla = contains_word(lo, "jax") || contains_word(lo, "xla") || contains_word(lo, "jaxlib");
    if (!tf && !xla) return false;
    auto any = [&](std::initializer_list<std::string_view> ps) { return contains_any(lo, ps); };
    // Not the pool denied or turned off ("so tensorflow does not preallocate anymore", "no longer
    // grabs"); the fix named beside the cause ("... Disable it via XLA_PYTHON_CLIENT_PREALLOCATE=false")
    // still tells the cause.
    if (any({"not prealloc", "not pre-alloc", "n't prealloc", "n't pre-alloc", "no longer", "not grab", "n't grab",
             "not take", "n't take", "not eat", "n't eat"})) {
      return false;
    }
    const bool pool =
        any({"prealloc", "pre-alloc", "preemptively"}) ||
        (any({"all memory", "all the memory", "all gpu memory", "all the gpu", "all of the gpu", "all vram", "all the vram",
              "entire vram", "entire gpu", "entire memory", "whole gpu", "whole memory", "most of the gpu", "nearly all",
              "almost all"}) &&
         std::any_of(std::begin(kPoolVerbs), std::end(kPoolVerbs), [&](std::string_view v) { return contains_word_start(lo, v); }));
    if (!pool) return false;
    const bool torch = contains_word(lo, "pytorch") || contains_word(lo, "torch");
    const bool backend = any({"cuda backend", "cupy", "cudnn", "cublas"});
    if (static_cast<int>(tf) + static_cast<int>(xla) + static_cast<int>(torch) + static_cast<int>(backend) >= 2) return true;
    return any({"another", "second", "other process", "other program", "other framework", "other user", "other job",
                "other notebook", "other script", "other model", "other app",
                "more than one", "multiple", "both", "starv", "leaving no", "leaves no", "left for", "there is nothing",
                "nothing left", "nothing to allocate", "no space", "no room", "same gpu", "same process"});
  }
  // Verbs of a pool taking memory, matched where a word starts ("grabs", "eating", "allocates").
  static constexpr std::string_view kPoolVerbs[] = {"grab", "eat", "take", "took", "hog", "map", "occup", "reserv",
                                                    "claim", "allocat", "consum"};


  // Whether a clause tells of a fix or a cause: one of its words of resolution where a word starts
  // ("fixed", "solved", "works", "turned out", "caused by", "due to", "the fix was", a PR title's
  // "fix(...)" or "Fix OOM by ..."); "fixed" only as a verb ("fixed it", "fixed by", "was fixed",
  // a clause that opens with it), not "a fixed seed".
  static constexpr std::string_view kCues[] = {
        "fixes", "fix:", "fix is", "fix was", "solved", "solves", "resolved", "resolves", "solution",
        "workaround", "worked", "works", "helped", "turned out", "turns out", "caused by", "the cause", "culprit",
        "due to", "because", "the problem was", "the issue was", "the reason", "fix(", "to stop", "to prevent",
        "to avoid", "can avoid", "avoids the", "avoids oom", "to mitigate", "mitigates", "mitigated", "make it work", "makes it work", "made it work", "fix oom",
        // the one setting it runs with ("it can only run if batch_size is adjusted to 8")
        // ("only works if / with" is read by "works")
        "only run if", "only runs if", "only run when", "only runs when", "only run with", "only runs with",
        "only work if", "only work with", "only fits with", "only fits if",
        "fix the oom", "fix cuda oom",
        "fix out of memory", "fix the out of memory", "fix memory", "fix gpu memory", "fix a leak", "fix the leak",
        "fix a memory leak", "fixes a leak", "fixes a memory leak", "fix leak"};

  // Whether `lo` holds a CJK ideograph (a UTF-8 lead byte 0xE4..0xE9: U+4000..U+9FFF), not only
  // other non-ASCII text (an en dash, curly quotes).
  static bool cjk_ideographs(std::string_view lo) {
    return std::any_of(lo.begin(), lo.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u >= 0xE4 && u <= 0xE9;
    });
  }

  // A statement denied without the apostrophe: "isnt", "wasnt", "arent" ("adam isnt the issue
  // here"). Not "cant fit", "doesnt save enough", "didnt expect that": those tell the failure.
  static bool apostrophe_less_denial(std::string_view clause) {
    for (std::string_view w : {"isnt", "wasnt", "arent"}) {
      if (contains_word(clause, w)) return true;
    }
    return false;
  }

  // Words of success whose subject is the change itself ("reducing the batch size allowed me to
  // train", "torch.no_grad() did the trick"): tells_resolution() needs no verb of changing beside
  // them.
  static constexpr std::string_view kCausalSuccess[] = {
      "allowed me to", "allowed us to", "let me ", "let us ", "lets me ", "made it possible", "did the trick",
      "does the trick", "is gone", "are gone", "made it work", "made it fit", "was the fix", "that did it",
      "all it needed", "all it took", "got rid of", "stopped crashing", "stopped blowing up", "stopped the ram",
      "stopped the memory", "stopped the oom", "stopped the crash", "eliminates the", "eliminated the"};
  // A workaround the user had to make (tells_resolution()), before a verb of changing.
  static constexpr std::string_view kHadTo[] = {"i had to ", "we had to "};
  // Words of a thing gone ("went away", "disappeared", "is gone"), matched where a word starts.
  static constexpr std::string_view kGone[] = {"disappear", "went away", "goes away", "go away", "gone away",
                                               "vanished", "is gone", "are gone"};
  // The failure told gone ("the OOM went away", "made the OOM disappear", "the CUDA out of memory
  // error is gone"): a word of failure before the word of going is its subject, not a failure told
  // beside the change. Not something else gone ("about 8GB of GPU memory just disappeared", "the
  // warning went away"), nor a hope, a condition or advice ("I hoped the crash would go away",
  // "the OOM goes away if you lower the batch size").
  static bool failure_gone(std::string_view clause) {
    for (std::string_view h : {"would", "might", "hope", "if ", "should", "try "}) {
      if (contains_word_start(clause, h)) return false;
    }
    for (std::string_view w : kGone) {
      for (size_t p = clause.find(w); p != std::string_view::npos; p = clause.find(w, p + 1)) {
        if (!word_starts_at(clause, p)) continue;
        const std::string_view before = clause.substr(0, p);
        for (std::string_view f : {"oom", "error", "crash", "out of memory", "problem", "issue", "exception", "killed"}) {
          if (contains_word_start(before, f)) return true;
        }
      }
    }
    return false;
  }
  // The other words of success (success_told()), matched where a word starts.
  static constexpr std::string_view kSuccess[] = {
      "was able to", "were able to", "without issue", "without any issue", "without problem", "without any problem",
      "managed to", "went through", "go through", "get through", "started fine", "smoothly", "could train", "could run",
      "could finish", "could load", "could generate", "could fit", "could finetune", "could fine-tune", "could start",
      "successfully train", "successfully ran", "successfully run", "successfully finish", "trained successfully",
      "ran successfully", "runs successfully", "finished successfully", "completed successfully", "finally",
      "without crash", "without oom", "without getting killed", "without being killed", "without running out",
      "without error", "did it", "running now", "runs now", "trains now", "working now", "finished", "completes",
      "completed", "complete fine", "run to completion", "ran to completion", "run well", "runs well", "ran well",
      "runned well", "works well", "worked well"};
  // What opens a failure word negated as the success itself (success_despite_failure_word()).
  static constexpr std::string_view kChangeMarkers[] = {" and now ", " -> ", "\xe2\x86\x92"};  // ... → (U+2192)
  static constexpr std::string_view kNegatedFailure[] = {"no longer ", "no more ", "doesn't ", "does not ", "don't ",
                                                         "didn't ", "never "};

  // Words of a run that went through, in `clause` (tells_resolution()): "was able to", "managed
  // to", "without issues", "went through", "runs fine", "no longer OOMs", "I could train", ...;
  // zh 能正常 / 能跑 / 跑起来 / 可以训练 / 就够了 / 不爆 / 跑完 / 不会被kill / 降下来 (it runs, it is enough,
  // no longer blows up, it came down).
  static bool success_told(std::string_view clause) {
    for (std::string_view w : kSuccess) {
      if (contains_word_start(clause, w)) return true;
    }
    for (std::string_view w : kCausalSuccess) {
      if (contains_word_start(clause, w)) return true;
    }
    if (fine_told(clause)) return true;  // "runs fine", not "finetuning" nor "fine-tuning"
    if (succeeded_after_change(clause)) return true;
    if (success_despite_failure_word(clause)) return true;
    // Also 可以正常 (can run normally), 训起来 (trains), 不 OOM / 不oom (no OOM), 降到 / 降了 (came down),
    // 跑通 (ran through), 不再 (no longer), 顺利 (smoothly), 解决 (solved), 没了 (is gone).
    for (std::string_view z : {"\xe5\x8f\xaf\xe4\xbb\xa5\xe6\xad\xa3\xe5\xb8\xb8", "\xe8\xae\xad\xe8\xb5\xb7\xe6\x9d\xa5",
                               "\xe4\xb8\x8d oom", "\xe4\xb8\x8doom", "\xe9\x99\x8d\xe5\x88\xb0", "\xe9\x99\x8d\xe4\xba\x86",
                               "\xe8\xb7\x91\xe9\x80\x9a", "\xe4\xb8\x8d\xe5\x86\x8d", "\xe9\xa1\xba\xe5\x88\xa9",
                               "\xe8\xa7\xa3\xe5\x86\xb3", "\xe6\xb2\xa1\xe4\xba\x86",
                               "\xe8\x83\xbd\xe6\xad\xa3\xe5\xb8\xb8", "\xe8\x83\xbd\xe8\xb7\x91",
                               "\xe8\xb7\x91\xe8\xb5\xb7\xe6\x9d\xa5", "\xe5\x8f\xaf\xe4\xbb\xa5\xe8\xae\xad\xe7\xbb\x83",
                               "\xe5\xb0\xb1\xe5\xa4\x9f\xe4\xba\x86", "\xe4\xb8\x8d\xe7\x88\x86", "\xe8\xb7\x91\xe5\xae\x8c",
                               "\xe4\xb8\x8d\xe4\xbc\x9a\xe8\xa2\xab", "\xe9\x99\x8d\xe4\xb8\x8b\xe6\x9d\xa5"}) {
      if (clause.find(z) != std::string_view::npos) return true;
    }
    return false;
  }

  // "Succeeded" told of a change (tells_resolution()): with the change after it ("I only succeeded in
  // starting the training when I set the batch size to 3", "it succeeds after lowering the resolution")
  // or the change its subject ("reducing the batch size to 2 succeeded"); not a step or a load that
  // went through before the failure ("loading the checkpoint succeeded; the OOM comes ..."), not told
  // only sometimes ("succeeds sometimes, but not always").
  static bool succeeded_after_change(std::string_view clause) {
    // ("successfully ..." is kSuccess's.)
    const size_t p = clause.find("succeed");
    if (p == std::string_view::npos || !word_starts_at(clause, p)) return false;
    if (contains_any(clause, {"sometimes", "occasionally", "not always", "at times"})) return false;
    const std::string_view after = clause.substr(p);
    const bool change_after = contains_any(after, {" when i ", " when we ", " after ", " once i ", " once we ", " by ",
                                                   " when setting", " when using", " with a smaller", " with smaller",
                                                   " with a lower", " with lower"});
    const std::string_view before = clause.substr(0, p);
    const bool change_subject = contains_any(before, {"reducing ", "lowering ", "decreasing ", "setting ", "switching ",
                                                      "using ", "enabling ", "halving ", "changing ", "moving ",
                                                      "reduce ", "lower "});
    return change_after || change_subject;
  }

  // A failure word negated as the success itself: "it no longer OOMs", "no more crashes",
  // "doesn't run out anymore", "never OOMs since".
  static bool success_despite_failure_word(std::string_view clause) {
    for (std::string_view neg : kNegatedFailure) {
      for (size_t p = clause.find(neg); p != std::string_view::npos; p = clause.find(neg, p + 1)) {
        const std::string_view then = clause.substr(p + neg.size(), 20);
        for (std::string_view f : {"oom", "crash", "run out", "runs out", "get killed", "gets killed", "die", "blow up",
                                   "have an error", "have the error", "have this error", "get an error", "get the error",
                                   "get this error", "getting the error", "getting this error",
                                   // the trouble met no more ("so i cropped the wav files to 4secs and didn't face
                                   // any issue")
                                   "face any issue", "face any problem", "face the issue", "face this issue",
                                   "face any error", "have any issue", "have any problem", "get any issue",
                                   "get any error"}) {
          if (then.substr(0, f.size()) == f) return true;
        }
      }
    }
    return false;
  }

  static bool tells_resolution(std::string_view clause) {
    // What usually happens is an expectation, not this run's account ("I resized all images to
    // 512, normally that works well with 12GB").
    if (contains_word(clause, "normally") || contains_word(clause, "usually")) return false;
    // A leak of something other than memory ("fix a leak of the HF token into logs", "a file
    // descriptor leak"): not the account of a memory leak.
    if (const size_t lk = clause.find("leak"); lk != std::string_view::npos &&
        contains_any(clause.substr(lk > 30 ? lk - 30 : 0, 70),
                     {"token", "secret", "credential", "password", "api key", "file descriptor", " fd", "handle", "socket"})) {
      return false;
    }
    // A cause or a fix guessed, not found: "the solution seems to be to decrease the batch_size",
    // "the cause might be the dataloader" (the user asks next how to do it).
    for (std::string_view noun : {"solution", "cause", "reason", "problem", "culprit", "fix"}) {
      for (size_t p = clause.find(noun); p != std::string_view::npos; p = clause.find(noun, p + 1)) {
        if (!word_starts_at(clause, p)) continue;
        const std::string_view after = clause.substr(p + noun.size());
        for (std::string_view hedge : {" seems to be", " might be", " may be", " could be"}) {
          if (after.substr(0, hedge.size()) == hedge) return false;
        }
      }
    }
    for (std::string_view c : kCues) {
      // "works" as a word: not "workstation".
      if (c == "works" ? contains_word(clause, c) : contains_word_start(clause, c)) return true;
    }
    // A run that went through after a change: "after setting max_split_size_mb:128 I was able to
    // continue decoding without issues", "by using 8-bit Adam we were able to train", "I could
    // train after I reduced the batch size", "switched to 8-bit Adam and it no longer OOMs".
    // Success words alone are no account ("I was able to train at batch size 16 before the
    // upgrade"): a change is named, by a verb of changing where a word starts, after "after",
    // "by", "once", "when", "since" (and "I"/"we"), or opening the clause, or "with ... enabled";
    // one that bears on memory, not "after installing the toolkit" or "after upgrading". Words
    // that name their cause as their subject ("reducing the batch size to 2 allowed me to train",
    // "max_split_size_mb:128 let me get through the run", "torch.no_grad() did the trick") need
    // no verb. zh: 以后 / 之后 (after) or a verb of changing (改成, 调小, 开了, 加了, 用了, 设置了, 换成)
    // with 能 / 可以 / 够了 / 正常 / 跑起来 / 跑完 (it can, it is enough, it runs). Not a failure
    // reproduced, a crash or a divergence, nor what came next or before ("then", "it OOMs",
    // "still", "before").
    const bool gone = failure_gone(clause);
    const bool crashed = contains_word_start(clause, "crash") && !success_despite_failure_word(clause) &&
                         !contains_word_start(clause, "without crash") && !contains_word_start(clause, "got rid of") &&
                         !contains_word_start(clause, "stopped crashing") && !contains_word_start(clause, "stopped the crash") &&
                         !gone;
    // Nor a failure told in the same clause ("Finally, after setting batch size to 32, the GPU ran
    // out of memory"), unless it is the failure negated ("no more OOM", "without OOM"), nor a
    // request ("let me know").
    const bool failed_too = (clause.find("out of memory") != std::string_view::npos || contains_word_start(clause, "oom") ||
                             clause.find("ran out") != std::string_view::npos ||
                             clause.find("runs out") != std::string_view::npos) &&
                            !success_despite_failure_word(clause) && clause.find("without") == std::string_view::npos &&
                            clause.find("no oom") == std::string_view::npos && clause.find("no more") == std::string_view::npos &&
                            !gone;
    const bool not_went_through = crashed || failed_too || clause.find("let me know") != std::string_view::npos ||
                                  clause.find("let us know") != std::string_view::npos || contains_word_start(clause, "reproduc") ||
                                  contains_word_start(clause, "diverg") || contains_word(clause, "then") ||
                                  contains_word_start(clause, "hang") || contains_word_start(clause, "freez") ||
                                  clause.find("just dies") != std::string_view::npos ||
                                  contains_word(clause, "still") || contains_word(clause, "before") ||
                                  contains_word_start(clause, "it oom");
    if (!not_went_through && gone) return true;
    // A workaround the user had to make, told in the past: "I had to split the document into two
    // pieces", "we had to reduce the batch size to 2" (a question or a denial was dropped before);
    // not a requirement ("as required by the dataset", "to install the package") nor a change that
    // made it worse ("and now it uses even more memory").
    for (std::string_view had : kHadTo) {
      const size_t p = clause.find(had);
      if (!not_went_through && p != std::string_view::npos && word_starts_at(clause, p) &&
          clause.find("required") == std::string_view::npos && clause.find("install") == std::string_view::npos &&
          clause.find("even more") == std::string_view::npos && clause.find("more memory") == std::string_view::npos) {
        const std::string_view rest = clause.substr(p + had.size());
        for (std::string_view v : {"split", "reduc", "lower", "decreas", "cut", "limit", "shrink", "halv", "resiz", "crop",
                                   "downscal", "truncat", "shorten", "chunk", "use a smaller", "use smaller", "switch",
                                   "enabl", "disabl", "set ", "kill", "close", "restart", "increas", "add"}) {
          if (rest.substr(0, v.size()) == v) return true;
        }
      }
    }
    if (!not_went_through && success_told(clause)) {
      for (std::string_view w : kCausalSuccess) {
        if (contains_word_start(clause, w)) return true;
      }
      // A change told by its marker: "num_workers 8 -> 2 and ...", "... and now it trains".
      for (std::string_view w : kChangeMarkers) {
        if (clause.find(w) != std::string_view::npos) return true;
      }
      // "<change> and it no longer OOMs", "... and no more OOM on GPU 0": the failure negated is
      // the success, its cause the clause's subject (not after an upgrade).
      if (success_despite_failure_word(clause) && !contains_word_start(clause, "upgrad")) return true;
      static constexpr std::string_view kChange[] = {"set", "reduc", "lower", "decreas", "switch", "enabl", "disabl", "add",
                                                     "chang", "cut", "turn", "limit", "remov", "replac", "using", "mov",
                                                     "pass", "shrink", "halv", "quantiz", "drop", "wrap", "offload",
                                                     "call", "appl", "clear", "split", "load"};
      auto change_at = [&](size_t p) {
        std::string_view rest = clause.substr(p);
        for (std::string_view who : {"i ", "we "}) {
          if (rest.substr(0, who.size()) == who) rest.remove_prefix(who.size());
        }
        return std::any_of(std::begin(kChange), std::end(kChange),
                           [&](std::string_view v) { return rest.substr(0, v.size()) == v; });
      };
      for (std::string_view by : {"after ", "by ", "once ", "when ", "since "}) {
        for (size_t p = clause.find(by); p != std::string_view::npos; p = clause.find(by, p + 1)) {
          if (word_starts_at(clause, p) && change_at(p + by.size())) return true;
        }
      }
      size_t lead = 0;
      while (lead < clause.size() && !is_alpha(clause[lead])) ++lead;
      if (change_at(lead)) return true;
      if (contains_word(clause, "with") && (contains_word(clause, "enabled") || contains_word(clause, "turned on"))) {
        return true;
      }
      for (std::string_view z : {"\xe4\xbb\xa5\xe5\x90\x8e", "\xe4\xb9\x8b\xe5\x90\x8e", "\xe6\x94\xb9\xe6\x88\x90",
                                 "\xe8\xb0\x83\xe5\xb0\x8f", "\xe5\xbc\x80\xe4\xba\x86", "\xe5\x8a\xa0\xe4\xba\x86",
                                 "\xe7\x94\xa8\xe4\xba\x86", "\xe8\xae\xbe\xe7\xbd\xae\xe4\xba\x86",
                                 "\xe6\x8d\xa2\xe6\x88\x90"}) {
        if (clause.find(z) != std::string_view::npos) return true;
      }
    }
    size_t lead = 0;
    while (lead < clause.size() && !is_alpha(clause[lead])) ++lead;
    if (clause.substr(lead, 6) == "fixed ") return true;  // a title or commit line: "Fixed errors on GPU"
    for (size_t p = clause.find("fixed"); p != std::string_view::npos; p = clause.find("fixed", p + 1)) {
      if (!word_starts_at(clause, p)) continue;  // "prefixed"
      const std::string_view after = clause.substr(p + 5);
      const std::string_view before = clause.substr(0, p);
      for (std::string_view a : {" it", " this", " that", " the ", " by", " my", " for", " with", " in ", "!", "."}) {
        if (after.substr(0, a.size()) == a) return true;
      }
      if (after.empty() || after.front() == ',') return true;
      for (std::string_view b : {"is ", "was ", "got ", "been ", "be "}) {
        if (before.size() >= b.size() && before.substr(before.size() - b.size()) == b) return true;
      }
    }
    return false;
  }

  // A clause about a trouble that is not memory, with no word of memory in it: "reducing the batch
  // size fixed the NaN loss", "the import error is gone", "num_workers 8 fixed the dataloader
  // bottleneck", "改了batch size之后精度下降了" (zh: the accuracy dropped). Its fix or cause is not the
  // OOM's (stated_account() does not read it). The trouble must be what was fixed or is gone: "X
  // fixed it, accuracy is unchanged" is an OOM fix with an aside, and "fixed the OOM, the loss is
  // NaN now" names the memory.
  static bool other_trouble_resolved(std::string_view clause) {
    // zh: 精度 (accuracy), 收敛 (convergence): the account is the whole line there.
    const bool zh_other = clause.find("\xe7\xb2\xbe\xe5\xba\xa6") != std::string_view::npos ||
                          clause.find("\xe6\x94\xb6\xe6\x95\x9b") != std::string_view::npos;
    // The trouble right after the word of fixing ("fixed the NaN loss", "solved the dataloader
    // bottleneck"), or right before the word of going ("the import error is gone"): not an
    // aside ("fixed it, accuracy is unchanged").
    static constexpr std::string_view kTrouble[] = {"nan", "import error", "importerror", "bottleneck", "deadlock",
                                                    "accuracy", "converge"};
    bool other = zh_other;
    for (std::string_view fix : {"fixed ", "fixes ", "solved ", "solves ", "resolved ", "resolves "}) {
      for (size_t p = clause.find(fix); !other && p != std::string_view::npos; p = clause.find(fix, p + 1)) {
        std::string_view object = clause.substr(p + fix.size(), 40);
        object = object.substr(0, std::min(object.find(','), object.find(';')));
        for (std::string_view a : {"the ", "my ", "our ", "this ", "that "}) {
          if (object.substr(0, a.size()) == a) object.remove_prefix(a.size());
        }
        for (std::string_view t : kTrouble) {
          const size_t q = object.find(t);
          if (q != std::string_view::npos && q <= 12 && word_starts_at(object, q)) other = true;
        }
      }
    }
    for (std::string_view g : kGone) {
      const size_t p = clause.find(g);
      if (other || p == std::string_view::npos) continue;
      const std::string_view subject = clause.substr(p >= 30 ? p - 30 : 0, p >= 30 ? 30 : p);
      for (std::string_view t : kTrouble) {
        if (contains_word_start(subject, t)) other = true;
      }
    }
    if (!other) return false;
    const bool memory = contains_any(clause, {"memory", "oom", "vram", "out of", "alloc", "killed"}) ||
                        std::any_of(std::begin(kZhMemoryWords), std::end(kZhMemoryWords),
                                    [&](std::string_view w) { return clause.find(w) != std::string_view::npos; }) ||
                        contains_word(clause, "ram");
    return !memory;
  }

  // The reporter's own account of what fixed the OOM or what caused it: on a sentence line, a clause
  // with a word of resolution (tells_resolution()) and, in the line's clauses that neither deny nor
  // ask, a remedy or cause the playbook names
  // ("reducing num_workers to 0 solved it" -> cpu_ram, "map_location to LOCAL_RANK fixed it, every
  // rank loaded onto GPU 0" -> multi_gpu_imbalance, "expandable_segments fixes it" ->
  // fragmentation). Names are matched where a word starts; "RAM" as a word and not beside the
  // GPU's memory. Several causes named in the clause share the weight: 0.5 for one (above the
  // message's default candidates, activations_batch at 0.4; below what the message's numbers
  // decide with, 0.75 and up), 0.4 each for two, 0.3 for more. Not read from a clause that denies
  // or asks (denied_or_asked()), a code line or a program's output (printed_line()). A sentence,
  // so never a verdict by itself (Builder::cap_prose_only); one such fact per cause per 50 lines.
  // The remedies' and causes' names; the settings' own are kSettingKnobs (read below as well).
  static constexpr SettingKnob kNamed[] = {
      // A cap on the process's share of the GPU (a framework's fraction setting): what the account
      // changed is the cap, not the work (NVTabular's TF_MEMORY_ALLOCATION, TensorFlow's
      // per_process_gpu_memory_fraction, PyTorch's set_per_process_memory_fraction).
      {"tf_memory_allocation", OomCause::kOther}, {"per_process_gpu_memory_fraction", OomCause::kOther},
      {"set_per_process_memory_fraction", OomCause::kOther},
      {"expandable_segments", OomCause::kFragmentation}, {"max_split_size", OomCause::kFragmentation},
      {"fragment", OomCause::kFragmentation}, {"empty_cache", OomCause::kFragmentation},
      // an allocator's arena ("BFCArena has no logic to free those"), not a benchmark's or a project's name
      {"bfcarena", OomCause::kFragmentation},
      {"cuda_malloc_async", OomCause::kFragmentation}, {"garbage_collection_threshold", OomCause::kFragmentation},
      // the caching allocator switched off (Lua Torch's THC, PyTorch's debugging switch)
      {"thc_caching_allocator", OomCause::kFragmentation}, {"pytorch_no_cuda_memory_caching", OomCause::kFragmentation},
      {"set_device", OomCause::kMultiGpuImbalance}, {"balanced_low_0", OomCause::kMultiGpuImbalance},
      {"first gpu", OomCause::kMultiGpuImbalance}, {"gpu 0", OomCause::kMultiGpuImbalance},
      {"gpu0", OomCause::kMultiGpuImbalance}, {"cuda:0", OomCause::kMultiGpuImbalance},
      {"device 0", OomCause::kMultiGpuImbalance}, {"rank 0", OomCause::kMultiGpuImbalance},
      {"rank0", OomCause::kMultiGpuImbalance}, {"main gpu", OomCause::kMultiGpuImbalance},
      {"local_rank", OomCause::kMultiGpuImbalance}, {"device placement", OomCause::kMultiGpuImbalance},
      {"wrong device", OomCause::kMultiGpuImbalance},
      {"optimizer state", OomCause::kOptimizerState}, {"optimizer's state", OomCause::kOptimizerState},
      {"8bit adam", OomCause::kOptimizerState}, {"8-bit adam", OomCause::kOptimizerState},
      {"adamw_bnb_8bit", OomCause::kOptimizerState}, {"adam8bit", OomCause::kOptimizerState},
      {"8-bit optim", OomCause::kOptimizerState}, {"8bit optim", OomCause::kOptimizerState},
      {"offload_optimizer", OomCause::kOptimizerState}, {"optimizer offload", OomCause::kOptimizerState},
      {"no_grad", OomCause::kEvalWithoutNoGrad}, {"inference_mode", OomCause::kEvalWithoutNoGrad},
      {"volatile", OomCause::kEvalWithoutNoGrad}, {"eval_accumulation_steps", OomCause::kEvalWithoutNoGrad},
      {"system memory", OomCause::kCpuRam}, {"host memory", OomCause::kCpuRam},
      {"system ram", OomCause::kCpuRam}, {"cpu memory", OomCause::kCpuRam}, {"cpu ram", OomCause::kCpuRam},
      {"shared memory", OomCause::kCpuRam}, {"/dev/shm", OomCause::kCpuRam}, {"swap", OomCause::kCpuRam},
      {"wsl", OomCause::kCpuRam},
      // a host-side library's memory-saving switch turned on (UMAP's and pynndescent's low_memory=True): what
      // it saves is the host's RAM (not generate()'s low_memory, read where the clause names generation)
      {"low_memory=true", OomCause::kCpuRam}, {"low_memory = true", OomCause::kCpuRam},
      // fewer worker processes (DataLoader's, RLlib's rollout workers: each holds its own copies in host RAM)
      {"fewer workers", OomCause::kCpuRam}, {"less workers", OomCause::kCpuRam}, {"number of workers", OomCause::kCpuRam},
      {"# of workers", OomCause::kCpuRam},
      {"truncat", OomCause::kActivationsSeqlen}, {"input length", OomCause::kActivationsSeqlen},
      {"audio length", OomCause::kActivationsSeqlen},
      {"shorter", OomCause::kActivationsSeqlen}, {"tiling", OomCause::kActivationsSeqlen},
      {"smaller image", OomCause::kActivationsSeqlen}, {"smaller picture", OomCause::kActivationsSeqlen},
      {"tiled", OomCause::kActivationsSeqlen}, {"tile size", OomCause::kActivationsSeqlen},
      // The prompt's tokens processed at once (MLX's prefill_step_size, chunked prefill): the
      // prefill's activations, which grow with that length.
      {"prefill_step_size", OomCause::kActivationsSeqlen}, {"prefill step size", OomCause::kActivationsSeqlen},
      {"chunked prefill", OomCause::kActivationsSeqlen}, {"chunked_prefill", OomCause::kActivationsSeqlen},
      {"tile_size", OomCause::kActivationsSeqlen}, {"sliding window", OomCause::kActivationsSeqlen},
      {"sliding-window", OomCause::kActivationsSeqlen}, {"crop", OomCause::kActivationsSeqlen},
      // a memory-efficient attention kernel turned on (xformers, PyTorch's SDPA, diffusers'
      // enable_xformers_memory_efficient_attention()): no (B, h, T, T) scores held (Rabe & Staats 2021,
      // "Self-attention Does Not Need O(n^2) Memory"; Dao et al. 2022, FlashAttention)
      {"xformers", OomCause::kActivationsSeqlen}, {"memory_efficient_attention", OomCause::kActivationsSeqlen},
      {"memory efficient attention", OomCause::kActivationsSeqlen},
      {"memory-efficient attention", OomCause::kActivationsSeqlen},
      {"resiz", OomCause::kActivationsSeqlen}, {"downscal", OomCause::kActivationsSeqlen},
      {"downsampl", OomCause::kActivationsSeqlen}, {"split the document", OomCause::kActivationsSeqlen},
      {"split the text", OomCause::kActivationsSeqlen},
      {"split the image", OomCause::kActivationsSeqlen}, {"split the audio", OomCause::kActivationsSeqlen},
      {"split the input", OomCause::kActivationsSeqlen}, {"split the video", OomCause::kActivationsSeqlen},
      {"smaller batch", OomCause::kActivationsBatch},
      // the batch itself made smaller ("halving the batch fixed it", "reduced the batch to 8")
      {"halving the batch", OomCause::kActivationsBatch}, {"halved the batch", OomCause::kActivationsBatch},
      {"reducing the batch", OomCause::kActivationsBatch}, {"reduced the batch", OomCause::kActivationsBatch},
      {"lowering the batch", OomCause::kActivationsBatch}, {"lowered the batch", OomCause::kActivationsBatch},
      {"decreasing the batch", OomCause::kActivationsBatch}, {"decreased the batch", OomCause::kActivationsBatch},
      {"gradient_accumulation", OomCause::kActivationsBatch}, {"gradient accumulation", OomCause::kActivationsBatch},
      {"gradient checkpointing", OomCause::kActivationsBatch}, {"gradient_checkpointing", OomCause::kActivationsBatch},
      {"activation checkpointing", OomCause::kActivationsBatch},
      // activations recomputed in the backward (Megatron's --recompute-granularity / --recompute-method;
      // Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models", sec. 4):
      // activation checkpointing by its other name
      {"activation recomputation", OomCause::kActivationsBatch}, {"activation recompute", OomCause::kActivationsBatch},
      {"full recompute", OomCause::kActivationsBatch}, {"recompute_granularity", OomCause::kActivationsBatch},
      {"recompute-activations", OomCause::kActivationsBatch}, {"recompute_activations", OomCause::kActivationsBatch},
      {"\xe6\xa2\xaf\xe5\xba\xa6\xe6\xa3\x80\xe6\x9f\xa5\xe7\x82\xb9", OomCause::kActivationsBatch},  // 梯度检查点
      {"gpu_memory_utilization", OomCause::kGenerationKvCache},
      {"kv cache", OomCause::kGenerationKvCache}, {"kv_cache", OomCause::kGenerationKvCache},
      {"kv-cache", OomCause::kGenerationKvCache}, {".item()", OomCause::kLeakAcrossSteps},
      {"detach", OomCause::kLeakAcrossSteps},
      {"clear_session", OomCause::kLeakAcrossSteps}, {".cpu()", OomCause::kLeakAcrossSteps},
      {"leak", OomCause::kLeakAcrossSteps}, {"retrac", OomCause::kLeakAcrossSteps},
      {"another process", OomCause::kOtherProcess}, {"other process", OomCause::kOtherProcess},
      {"zombie", OomCause::kOtherProcess}, {"another job", OomCause::kOtherProcess},
      {"other job", OomCause::kOtherProcess}, {"someone else", OomCause::kOtherProcess},
      {"orphan", OomCause::kOtherProcess}, {"other application", OomCause::kOtherProcess},
      {"another application", OomCause::kOtherProcess}, {"other program", OomCause::kOtherProcess},
      {"another program", OomCause::kOtherProcess},
      {"downgrad", OomCause::kOther}, {"a regression", OomCause::kOther}, {"the regression", OomCause::kOther},
      {"a bug", OomCause::kOther}, {"the bug", OomCause::kOther},
      {"quantiz", OomCause::kStaticModelTooLarge}, {"load_in_8bit", OomCause::kStaticModelTooLarge},
      {"load_in_4bit", OomCause::kStaticModelTooLarge}, {"smaller model", OomCause::kStaticModelTooLarge},
      {"in 4-bit", OomCause::kStaticModelTooLarge}, {"in 4bit", OomCause::kStaticModelTooLarge},
      {"torch_dtype", OomCause::kStaticModelTooLarge}, {"model is too large", OomCause::kStaticModelTooLarge},
      {"model too large", OomCause::kStaticModelTooLarge}, {"model is too big", OomCause::kStaticModelTooLarge},
      // the weights sharded over the GPUs ("I switched from ZeRO-2 to ZeRO-3, and I found that this works"):
      // ZeRO stage 3 partitions the parameters themselves (Rajbhandari et al. 2020, ZeRO, section 5.3)
      {"zero-3", OomCause::kStaticModelTooLarge}, {"zero3", OomCause::kStaticModelTooLarge},
      {"zero_3", OomCause::kStaticModelTooLarge}, {"zero stage 3", OomCause::kStaticModelTooLarge},
      {"full_shard", OomCause::kStaticModelTooLarge},
  };

  // The fix shown as code below a sentence that points at it ("that line should be changed with
  // the following lines:", "replace it with", "changed to", "edit the script as below"), then, within 8 lines, a code line
  // naming a remedy ("with torch.no_grad():"): the user's account, as stated_account() reads a
  // sentence. Not a pointer asked ("should it be changed to ...?").
  void fix_shown_as_code(std::string_view raw, std::string_view lo, int64_t n) {
    const bool code = code_line(lo) || lo.find("```") != std::string_view::npos;
    if (!code) {
      if (contains_any(lo, {"changed with", "changed to", "change it to", "change them to", "replace it with",
                            "replaced with", "replace with", "replaced by", "following line", "following code",
                            "followin lines", "as follows"}) &&
          lo.find('?') == std::string_view::npos) {
        fix_pointer_line_ = n;
      }
      // ("as below" proposed as a change: "maybe it makes sense to edit the simple starting script as
      // below", "it should be changed as below"; not "my code is as below", "I changed the parameters as
      // below", "24 GB should be enough ... my script is as below", nor a fix told failed: the code that
      // failed.)
      if (contains_any(lo, {"as below", "like below", "as shown below"}) &&
          contains_any(lo, {"makes sense to", "should be changed", "should be edited", "should edit", "should change",
                            "suggest", "the fix is", "to fix it", "to solve it"}) &&
          !contains_any(lo, {"did not", "didn't", "not help", "not work", "still"}) && lo.find('?') == std::string_view::npos) {
        fix_pointer_line_ = n;
      }
      return;
    }
    if (fix_pointer_line_ == 0 || n - fix_pointer_line_ > kFixPointerLines) return;
    uint32_t named = 0;
    for (const SettingKnob& x : kNamed) {
      if (contains_word_start(lo, x.text)) named |= uint32_t{1} << static_cast<int>(x.cause);
    }
    if (std::bitset<kCauseCount>(named).count() != 1) return;
    add_account(named, 0.5, n,
                "the user's fix, shown as code (line " + std::to_string(fix_pointer_line_) + " points at it): " +
                    shown(raw.substr(0, 160)));
  }

  // XLA's preallocated pool lowered or turned off in `clause` (a fix told): XLA_PYTHON_CLIENT_PREALLOCATE
  // set false, or XLA_PYTHON_CLIENT_MEM_FRACTION lowered (said so, or set below 0.75, JAX's default;
  // below 0.9, its default before JAX 0.4, unless told raised). Only what runs beside the pool in the
  // process (NCCL's buffers, cuDNN's workspaces, another framework) gains by that; a fraction raised
  // gives XLA's own work more room.
  static bool xla_pool_lowered(std::string_view clause) {
    if (const size_t p = clause.find("xla_python_client_preallocate"); p != std::string_view::npos) {
      const std::string_view v = clause.substr(p + 29, 12);
      return v.find("false") != std::string_view::npos || v.find("=0") != std::string_view::npos;
    }
    const size_t p = clause.find("xla_python_client_mem_fraction");
    if (p == std::string_view::npos) return false;
    if (contains_any(clause, {"rais", "increas", "higher", "bigger", "larger"})) return false;
    if (contains_any(clause, {"lower", "reduc", "decreas", "smaller"})) return true;
    size_t k = p + 30;
    while (k < clause.size() && (clause[k] == '=' || clause[k] == ' ' || clause[k] == '"' || clause[k] == '\'')) ++k;
    size_t e = k;
    while (e < clause.size() && (is_digit(clause[e]) || clause[e] == '.')) ++e;
    if (e == k) return false;
    const double v = std::atof(std::string(clause.substr(k, e - k)).c_str());
    return v > 0 && v < 0.9;
  }

  // A load onto the CPU told as what fixed the OOM (`lo` lowercased): map_location with the CPU, or a
  // load "to / onto / on the CPU" first, with a word of fixing ("fixes", "solved", "helped", "works",
  // a PR's "load model on CPU to avoid GPU OOMs");
  // not denied ("map_location='cpu' did not help") nor asked.
  // (The caller has found "cpu" and "load" or "map_location" on the line: its pair filter.)
  static bool cpu_load_fixed(std::string_view lo) {
    const bool onto_cpu = (lo.find("map_location") != std::string_view::npos) ||
                          contains_any(lo, {"to cpu", "to the cpu", "onto cpu", "onto the cpu", "on cpu", "on the cpu",
                                            "into cpu", "to 'cpu'", "to \"cpu\""});
    return onto_cpu && contains_any(lo, {"fixes", "fixed", "solve", "helps", "helped", "works", "resolved", "to avoid"}) &&
           !contains_any(lo, {"not ", "n't", "never", "?", "still", "tried"});
  }

  // A copy from the GPU to the host told in `text` ("GPU->CPU memory transfer", "gpu -> cpu",
  // "GPU→CPU", "device-to-host", D2H): it names the host as a copy's target, not the host's memory
  // running out.
  static bool gpu_to_host_copy(std::string_view text) {
    return contains_any(text, {"gpu->cpu", "gpu -> cpu", "gpu\xe2\x86\x92" "cpu", "gpu \xe2\x86\x92 cpu", "gpu to cpu",
                                 "gpu-to-cpu", "device-to-host", "device to host", "d2h"});
  }

  void stated_account(std::string_view raw, std::string_view lo, int64_t n) {
    // Cheap gate first (this runs on every line): a word of resolution or of success somewhere on
    // the line, from the same lists tells_resolution() reads (a substring of the line where they
    // match where a word starts), or a non-ASCII line (zh words of success, success_told()).
    auto any_in = [&](const auto& list) {
      return std::any_of(std::begin(list), std::end(list),
                         [&](std::string_view w) { return pairs_.may_contain(w) && lo.find(w) != std::string_view::npos; });
    };
    const bool cue = !ascii_ || (pairs_.may_contain("fixed") && lo.find("fixed") != std::string_view::npos) ||
                     (pairs_.may_contain("fine") && lo.find("fine") != std::string_view::npos) ||
                     (pairs_.may_contain("succeed") && lo.find("succeed") != std::string_view::npos) || any_in(kCues) ||
                     any_in(kSuccess) || any_in(kCausalSuccess) || any_in(kChangeMarkers) || any_in(kNegatedFailure) ||
                     any_in(kGone) || any_in(kHadTo);
    if (!cue) return;
    if ((code_line(lo) && !sentence_around_code(raw)) || printed_line(raw, lo)) return;
    // Another's claim reported ("Someone suggested that reducing the batch size eliminates the issue,
    // but for me it did not"): not the user's account.
    if (contains_any(lo, {"suggested that", "someone suggested"})) return;
    // The clauses that neither deny nor ask; one of them tells of a fix or a cause.
    std::vector<std::string_view> parts = clauses(lo);
    parts.erase(std::remove_if(parts.begin(), parts.end(), denied_or_asked), parts.end());
    parts.erase(std::remove_if(parts.begin(), parts.end(), other_trouble_resolved), parts.end());
    // A Chinese account spans its clauses ("开了gradient checkpointing之后显存降了一半，训练跑通了"):
    // read whole when no clause tells it alone.
    if (std::none_of(parts.begin(), parts.end(), tells_resolution) &&
        (!cjk_ideographs(lo) || denied_or_asked(lo) || other_trouble_resolved(lo) || !tells_resolution(lo))) {
      return;
    }
    const bool copy_to_host = gpu_to_host_copy(lo);  // a GPU-to-host copy on the line names no host RAM
    // The remedies and causes one clause names.
    auto named_in = [&](std::string_view clause) {
      uint32_t named = 0;
      // A command line's flags spell the knobs with hyphens ("--batch-size 32", "changing batch-size
      // from 128 to 32", "--max-model-len", "--micro-batch-size"): read as well with '_', and with
      // ' ', for a '-' between two letters.
      const std::string underscored = hyphens_between_letters(clause, '_');
      const std::string spaced = hyphens_between_letters(clause, ' ');
      // A remedy told as already in use ("I already use torch.no_grad(), and reducing the batch
      // fixed it", "no_grad was already there") is not the fix: "already" within 24 characters
      // before its name or 30 after it.
      auto already_in_use = [&](std::string_view text) {
        const size_t p = clause.find(text);
        if (p == std::string_view::npos) return false;
        const size_t from = p > 24 ? p - 24 : 0;
        return clause.substr(from, p - from).find("already") != std::string_view::npos ||
               clause.substr(p + text.size(), 24 + 6).find("already") != std::string_view::npos;
      };
      auto read = [&](std::string_view text, OomCause cause) {
        if ((contains_word_start(clause, text) || contains_word_start(underscored, text) ||
             contains_word_start(spaced, text)) &&
            !already_in_use(text)) {
          named |= uint32_t{1} << static_cast<int>(cause);
        }
      };
      // A memory-efficient attention kernel named as removed, downgraded, turned off or already on ("fixed
      // it by downgrading xformers", "uninstalling xformers fixed it", "xformers was already on; what fixed
      // it was CPU offload"): not that kernel turned on.
      const bool kernel_not_turned_on =
          contains_any(clause, {"downgrad", "uninstall", "remov", "disabl", "without", "already", "turn off", "turned off",
                                "upgrad", "version", "wheel", "reinstall"});
      for (const SettingKnob& x : kNamed) {
        // "GPU->CPU memory transfer" names a copy, not the host's memory.
        if (x.cause == OomCause::kCpuRam && copy_to_host) continue;
        if (kernel_not_turned_on && (x.text == "xformers" || x.text.find("efficient attention") != std::string_view::npos ||
                                     x.text == "memory_efficient_attention")) {
          continue;
        }
        // (transformers' generate(low_memory=True) saves the GPU's memory: a generation's switch.)
        if (x.cause == OomCause::kCpuRam && x.text.rfind("low_memory", 0) == 0 && clause.find("generat") != std::string_view::npos) {
          continue;
        }
        read(x.text, x.cause);
      }
      for (const SettingKnob& k : kSettingKnobs) read(k.text, k.cause);
      // The batch by its count alone ("Lowering to batch 32 works", "batch 8 fits").
      for (size_t b = clause.find("batch "); b != std::string_view::npos; b = clause.find("batch ", b + 6)) {
        if (word_starts_at(clause, b) && b + 6 < clause.size() && is_digit(clause[b + 6]) && !already_in_use("batch ")) {
          named |= uint32_t{1} << static_cast<int>(OomCause::kActivationsBatch);
        }
      }
      if (xla_pool_lowered(clause)) named |= uint32_t{1} << static_cast<int>(OomCause::kOther);
      if (contains_word(clause, "ram") && !gpu_memory_named(clause)) named |= uint32_t{1} << static_cast<int>(OomCause::kCpuRam);
      // A renderer named as what else is on the GPU ("because the habitat-sim renderer (EGL) is also on
      // GPU 0"): its memory is the account's cause (other), "GPU 0" only where it sits.
      if (contains_word(clause, "egl") || contains_any(clause, {"opengl", "vulkan", "renderer", "rendering"})) {
        named &= ~(uint32_t{1} << static_cast<int>(OomCause::kMultiGpuImbalance));
        named |= uint32_t{1} << static_cast<int>(OomCause::kOther);
      }
      return named;
    };
    // Read from the clauses that tell the fix or the cause, not from the line's other clauses (a
    // concession's "the batch size was 64" beside "setting expandable_segments fixed it"); one that
    // names nothing ("..., and that fixed it", "Solved. Didn't have enough CPU memory.") points at the
    // clause before it, else the one after it. Where no clause
    // tells it alone (a Chinese account across its clauses), all of them.
    uint32_t named = 0;
    const bool any_alone = std::any_of(parts.begin(), parts.end(), tells_resolution);
    // (A clause that tells the run failing at a batch of one, "I input batchsize 1 for one gpu, but out of
    // memory (caused by 3D convolution)", names no batch as the cause: the batch was already one.)
    auto named_but_batch_of_one = [&](size_t j) {
      uint32_t got = named_in(parts[j]);
      if (batch_of_one_fails(parts[j], lo)) got &= ~(uint32_t{1} << static_cast<int>(OomCause::kActivationsBatch));
      return got;
    };
    for (size_t i = 0; i < parts.size(); ++i) {
      if (any_alone && !tells_resolution(parts[i])) continue;
      uint32_t own = named_but_batch_of_one(i);
      if (own == 0 && i > 0) own = named_but_batch_of_one(i - 1);
      if (own == 0 && i + 1 < parts.size()) own = named_but_batch_of_one(i + 1);  // "Solved. Didn't have enough CPU memory."
      named |= own;
    }
    // A graph kept (detach, .item(), .cpu() the remedy) where nothing trains: the account places the
    // growth in sampling, inference, evaluation or generation ("The RAM filling up in sampling was
    // ... because of the missing .detach()"), no training word on the line: each call's autograd
    // graph kept outside training is evaluation without no_grad, not a training loop's leak.
    constexpr uint32_t kLeakBit = uint32_t{1} << static_cast<int>(OomCause::kLeakAcrossSteps);
    if ((named & kLeakBit) != 0 && graph_kept_outside_training(lo)) {
      named = (named & ~kLeakBit) | (uint32_t{1} << static_cast<int>(OomCause::kEvalWithoutNoGrad));
      // (Inference told: memory told growing on the lines around reads as its graphs, context_at().)
      add(n, FactKind::kStatement, OomCause::kEvalWithoutNoGrad, 0, "inference with a graph kept", 'i');
    }
    const size_t k = std::bitset<kCauseCount>(named).count();
    if (k == 0) return;
    add_account(named, k == 1 ? 0.5 : k == 2 ? 0.4 : 0.3, n,
                "the user's account of the fix or the cause: " + shown(raw.substr(0, 160)));
  }

  // A no-training phase named on the account's line `lo` ("in sampling", "during inference", "at
  // test time", "while generating") beside a graph-keeping remedy's name (detach, .item(), .cpu():
  // the caller's), with no training word on the line ("train", "training", "epoch", "backward").
  static bool graph_kept_outside_training(std::string_view lo) {
    if (!contains_word(lo, "detach") && lo.find(".detach") == std::string_view::npos && lo.find(".item()") == std::string_view::npos &&
        lo.find(".cpu()") == std::string_view::npos) {
      return false;
    }
    return no_training_phase_told(lo, true) || contains_any(lo, {"during generation", "while generating"});
  }

  // Sampling, inference, evaluation or prediction named as where it happens on the lower-cased line
  // `lo` ("during sampling", "in my sampling loop", "at inference", "during validation"; with
  // `bare_words` the words "inference" and "sampling" alone; a script that runs a trained model told run,
  // model_run_script_run()), with no training word on the line (nor fine-tuning)
  // ("train", "training", "epoch", "backward", "optimizer") nor a server ("inference server": its
  // caches grow per request).
  static constexpr std::string_view kModelRunScripts[] = {"play.py",   "infer.py",  "inference.py", "predict.py",
                                                          "demo.py",   "sample.py", "eval.py",      "evaluate.py"};
  static bool no_training_phase_told(std::string_view lo, bool bare_words) {
    for (std::string_view t : {"train", "training", "epoch", "epochs", "backward", "optimizer", "server"}) {
      if (contains_word(lo, t)) return false;
    }
    if (contains_any(lo, {"fine-tun", "finetun"})) return false;  // fine-tuning trains
    if (bare_words && (contains_word(lo, "inference") || contains_word(lo, "sampling"))) return true;
    return contains_any(lo, {"in sampling", "during sampling", "while sampling", "when sampling", "sampling loop",
                             "in inference", "during inference", "at inference", "while inferring", "in evaluation", "during evaluation",
                             "during eval", "in validation", "during validation", "during prediction", "while predicting",
                             "during testing", "at test time",
                             // the loop that runs it: "during the prediction loop", "in my inference loop"
                             "prediction loop", "inference loop", "evaluation loop", "validation loop", "test loop",
                             "testing loop"}) ||
           model_run_script_run(lo);
  }

  // A script that runs a trained model told run, by its own name, on the lower-cased line `lo` ("I ran
  // your script play.py": an RL policy played; "python inference.py --ckpt ..."): one of
  // kModelRunScripts at a word's start (not inside another's name, "jasper_infer.py", whose own loop
  // may keep outputs), a verb of running (ran, run, runs, running, python, python3, execute, launch)
  // within the 30 characters before it, no "not" or "n't" between ("I have not run eval.py yet").
  static bool model_run_script_run(std::string_view lo) {
    for (std::string_view x : kModelRunScripts) {
      for (size_t p = lo.find(x); p != std::string_view::npos; p = lo.find(x, p + 1)) {
        if (!word_starts_at(lo, p)) continue;
        const size_t from = p >= 30 ? p - 30 : 0;
        const std::string_view before = lo.substr(from, p - from);
        if (contains_any(before, {"not ", "n't ", "never "})) continue;
        for (std::string_view v : {"ran", "run", "runs", "running", "python", "python3", "execute", "executed",
                                   "executing", "launch", "launched"}) {
          if (contains_word(before, v)) return true;
        }
      }
    }
    return false;
  }

  // The user's account at line `n` of each cause whose bit `named` holds, `w` each, once per
  // cause per window (once_per_window()).
  void add_account(uint32_t named, double w, int64_t n, const std::string& what) {
    for (size_t c = 0; c < kCauseCount; ++c) {
      const auto cause = static_cast<OomCause>(c);
      if (((named >> c) & 1u) != 0 && once_per_window(last_account_, cause, n)) {
        add(n, FactKind::kStatement, cause, w, what, 0, Told::kAccount);
      }
    }
  }

  // Where the user's prose starts after an OOM message on the same line, or npos: the first
  // sentence after "out of memory" that opens with a word of the user's own ("But", "I" (also "I'm"), "My",
  // "When", "Any", "For this", "Even", ...; not "Please", which opens engines' own advice: vLLM's "Please try lowering
  // max_num_seqs"), not one of the message's own sentences ("Tried to allocate",
  // "If reserved memory is >> allocated memory", "Process 87262 has", "Of the allocated memory",
  // "See documentation"); with at least 20 characters after it. A message quoted in the user's line
  // ("I met the `torch.cuda.OutOfMemoryError: CUDA out of memory.` For this problem, ...") ends past
  // its closing quote, backtick or parenthesis.
  static size_t prose_after_message(std::string_view lo) {
    static constexpr std::string_view kOpeners[] = {
        "but", "i", "when", "it", "my", "how", "what", "why", "any", "can",
        "could", "is", "does", "so", "however", "also", "we", "and", "then", "after", "thanks", "thank", "this is", "this error",
        "this issue", "this problem", "this happens", "this must", "do you", "did you", "for this", "even", "still",
        "the above"};
    const size_t oom = lo.find("out of memory");
    if (oom == std::string_view::npos) return std::string_view::npos;
    // A title's message, a dash, then the user's words ("CUDA error: out of memory - other VRAM consumers
    // not detected in available memory"): words, not a field ("- current device: 0") nor a figure.
    if (lo.compare(oom + 13, 3, " - ") == 0) {
      const std::string_view rest = lo.substr(oom + 16);
      if (rest.size() >= 20 && is_alpha(rest[0]) && rest.find(' ') < 16 && rest.find(':') == std::string_view::npos &&
          rest.find('=') == std::string_view::npos) {
        return oom + 16;
      }
    }
    for (size_t p = oom; p < lo.size(); ++p) {
      if (lo[p] != '.' && lo[p] != '!' && lo[p] != '?') continue;
      size_t q = p + 1;
      // The message quoted ("... `torch.cuda.OutOfMemoryError: CUDA out of memory.` For this problem, ..."):
      // past its closing quote.
      while (q < lo.size() && (lo[q] == '`' || lo[q] == '"' || lo[q] == '\'' || lo[q] == ')')) ++q;
      if (q >= lo.size() || lo[q] != ' ') continue;
      while (q < lo.size() && lo[q] == ' ') ++q;
      const std::string_view rest = lo.substr(q);
      if (rest.size() < 20) return std::string_view::npos;
      for (std::string_view w : kOpeners) {
        if (rest.substr(0, w.size()) == w && (rest.size() == w.size() || !word_char(rest[w.size()]))) return q;
      }
    }
    return std::string_view::npos;
  }

  // Long inputs in words: "too long", "long samples/sequences/inputs/prompts", long audio, video or
  // documents (their length is the sequence), "过长" (zh: too long); with `input_word` (the line
  // holds a kWInputSize word) also a size word before an input noun (sized_input()).
  // `pairs`: the character pairs of `lo` or of a line holding it (a phrase whose pairs the line
  // lacks is not searched for).
  // A setting that places the work or caps its memory told to have no effect ("ngpu=0没有作用" (ngpu=0
  // has no effect) while the GPU's memory fills, "device='cpu' is ignored", "gpu_memory_utilization
  // seems to be ignored", "max_memory is not respected"): the library does not honour it, a bug in
  // it (other), whatever the memory then holds. The words of no effect follow the knob in its clause,
  // or a verb of leaving it out precedes it ("the warmup doesn't take into account the
  // max-num-batched-tokens"; an engine's token budget is such a cap); not asked ("is
  // CUDA_VISIBLE_DEVICES ignored?"). A remedy told not to help ("expandable_segments
  // had no effect") is no such setting: the stated account reads it.
  static bool placement_setting_ignored(std::string_view lo) {
    static constexpr std::string_view kKnobs[] = {
        "ngpu", "n_gpu", "num_gpus", "n_gpus", "use_gpu", "device=", "device =", "device_map", "cuda_visible_devices",
        "gpu_memory_utilization", "max_memory", "memory_limit", "per_process_memory_fraction",
        "set_per_process_memory_fraction", "mem_fraction",
        "memory_fraction", "gpu_ids", "--cpu", "cpu=true", "gpu=false", "gpu=0",
        // an engine's token and sequence budgets (vLLM's, SGLang's), also as flags
        "max_num_batched_tokens", "max-num-batched-tokens", "max_num_seqs", "max-num-seqs", "max_model_len",
        "max-model-len",
        // placements on the CPU by a flag's name ("--load_model_on_cpu is ignored", "cpu_offload has no effect")
        "load_model_on_cpu", "load-model-on-cpu", "cpu_offload", "cpu-offload", "offload_to_cpu", "offload_folder",
        "enable_sequential_cpu_offload", "enable_model_cpu_offload", "--no_cuda", "no_cuda=", "use_cpu="};
    // A component told to leave the setting out of its sizing, the setting after the verb ("the
    // warmup doesn't take into account the max-num-batched-tokens", "the profiler ignores
    // gpu_memory_utilization", "does not respect max_model_len").
    static constexpr std::string_view kLeavesOut[] = {
        "ignores ", "ignored ", "ignoring ", "doesn't take into", "does not take into", "didn't take into", "did not take into",
        "doesn't respect", "does not respect", "doesn't honor", "does not honor", "doesn't honour", "does not honour",
        "doesn't account for", "does not account for", "disregards "};
    static constexpr std::string_view kNoEffect[] = {
        "has no effect", "have no effect", "had no effect", "is ignored", "are ignored", "was ignored", "gets ignored",
        "get ignored", "be ignored", "not respected", "n't respected", "not honored", "not honoured", "n't honored",
        "n't honoured", "not take effect", "n't take effect", "not taking effect", "does nothing", "do nothing",
        "doesn't work", "does not work", "didn't work", "did not work", "not working",
        "\xe6\xb2\xa1\xe6\x9c\x89\xe7\x94\xa8", "\xe6\xb2\xa1\xe7\x94\xa8", "\xe4\xb8\x8d\xe7\xae\xa1\xe7\x94\xa8",  // 没有用, 没用, 不管用
        "\xe6\xb2\xa1\xe6\x9c\x89\xe4\xbd\x9c\xe7\x94\xa8", "\xe4\xb8\x8d\xe8\xb5\xb7\xe4\xbd\x9c\xe7\x94\xa8",
        "\xe6\xb2\xa1\xe8\xb5\xb7\xe4\xbd\x9c\xe7\x94\xa8", "\xe6\xb2\xa1\xe6\x9c\x89\xe7\x94\x9f\xe6\x95\x88",
        "\xe4\xb8\x8d\xe7\x94\x9f\xe6\x95\x88", "\xe6\x9c\xaa\xe7\x94\x9f\xe6\x95\x88",
        "\xe6\xb2\xa1\xe7\x94\x9f\xe6\x95\x88"};  // 没有作用, 不起作用, 没起作用, 没有生效, 不生效, 未生效, 没生效
    // The setting told to work after all ("has no effect on speed but it works"), or of no effect
    // on something else than where the memory goes (speed, accuracy, the output).
    if (contains_any(lo, {"it works", "works fine", "on speed", "on the speed", "on performance",
                          "on accuracy", "on the output", "on the result", "on activations", "on the activations",
                          "expected", "by design", "as documented", "docs say", "documentation says"})) {
      return false;
    }
    // The device told in use in spite of a setting that keeps the work off it ("Cuda appears to be in
    // use even when setting gpu=False", "TF still allocates GPU memory even though I set
    // CUDA_VISIBLE_DEVICES=\"\"", "Even with device_map=\"cpu\" the model still uses the GPU"): the
    // setting within 40 characters after the concession, the GPU or CUDA and its use elsewhere in the
    // same sentence, not asked.
    static constexpr std::string_view kOffDevice[] = {
        "gpu=false", "gpu = false", "use_gpu=false", "use_cuda=false", "cuda=false", "device='cpu'", "device=\"cpu\"",
        "device=cpu", "device_map='cpu'", "device_map=\"cpu\"", "device_map=cpu", "--cpu", "cpu=true", "ngpu=0", "n_gpu=0",
        "gpu=0", "cuda_visible_devices=\"\"", "cuda_visible_devices=''", "cuda_visible_devices=-1",
        "cuda_visible_devices=\"-1\""};
    for (std::string_view sentence : sentences(lo)) {
      if (sentence.find('?') != std::string_view::npos) continue;
      for (std::string_view though : {"even when ", "even with ", "even if ", "even after ", "even though ", "despite ",
                                      "in spite of ", "although "}) {
        const size_t tp = sentence.find(though);
        if (tp == std::string_view::npos) continue;
        const std::string_view knob = sentence.substr(tp + though.size(), 40);
        size_t knob_end = std::string_view::npos;
        for (std::string_view k : kOffDevice) {
          if (const size_t kp = knob.find(k); kp != std::string_view::npos) knob_end = tp + though.size() + kp + k.size();
        }
        const bool off_device = knob_end != std::string_view::npos;
        std::string rest(sentence.substr(0, tp));
        if (off_device) rest += sentence.substr(knob_end);
        if (off_device && contains_any(rest, {"gpu", "cuda"}) &&
            contains_any(rest, {"in use", "is used", "being used", "still use", "uses ", "using ", "allocat", "occup"})) {
          return true;
        }
      }
    }
    for (std::string_view c : clauses(lo)) {
      if (asks(c)) continue;
      for (std::string_view v : kLeavesOut) {
        const size_t vp = c.find(v);
        if (vp == std::string_view::npos) continue;
        // The user ignoring something ("I ignored the warning and set max_num_seqs") is no library's.
        const std::string_view subject = c.substr(vp >= 4 ? vp - 4 : 0, vp >= 4 ? 4 : vp);
        if (v[0] == 'i' && (subject == " we " || subject.substr(subject.size() >= 2 ? subject.size() - 2 : 0) == "i ")) continue;
        const std::string_view after = c.substr(vp + v.size(), 60);
        for (std::string_view k : kKnobs) {
          const size_t kp = after.find(k);
          if (kp != std::string_view::npos && word_starts_at(after, kp)) return true;
        }
      }
      for (std::string_view k : kKnobs) {
        const size_t kp = c.find(k);
        if (kp == std::string_view::npos || !word_starts_at(c, kp)) continue;
        const std::string_view after = c.substr(kp + k.size(), 60);
        if (std::any_of(std::begin(kNoEffect), std::end(kNoEffect),
                        [&](std::string_view x) { return after.find(x) != std::string_view::npos; })) {
          return true;
        }
      }
    }
    return false;
  }

  // A GPU other than the first chosen on the line: "cuda:1" (any index >= 1), "--cuda 1", "--gpu 2",
  // "--device 3", "gpu_id=1", "CUDA_VISIBLE_DEVICES=1".
  static bool nonzero_gpu_chosen(std::string_view lo) {
    for (std::string_view lead : {"cuda:", "--cuda ", "--cuda=", "--gpu ", "--gpu=", "--gpus ", "--device ", "--device=",
                                  "gpu_id=", "gpu_id ", "gpu_ids=", "cuda_visible_devices="}) {
      for (size_t p = lo.find(lead); p != std::string_view::npos; p = lo.find(lead, p + 1)) {
        size_t q = p + lead.size();
        while (q < lo.size() && (lo[q] == ' ' || lo[q] == '"' || lo[q] == '\'' || lo[q] == '[')) ++q;
        if (q < lo.size() && is_digit(lo[q]) && lo[q] != '0') return true;
      }
    }
    return false;
  }

  // The work told to land on the first GPU anyway: "it still used cuda:0", "always runs on GPU 0",
  // "uses GPU 0 instead", "just using the string 'cuda' as the device identifier without any index"
  // (PyTorch's current device, the first). With another GPU chosen (nonzero_gpu_chosen() on this line
  // or an earlier one) the program places tensors on the wrong device: placement, not the batch.
  // (Threads of this kind are settled as either multi_gpu_imbalance or other_process, as the user
  // tells the first GPU's other work or not; a sentence's weight, 0.3.)
  static bool work_lands_on_first_gpu(std::string_view lo) {
    const bool first = contains_any(lo, {"cuda:0", "gpu 0", "gpu0", "gpu:0", "card 0", "device 0", "first gpu",
                                         "'cuda'", "\"cuda\"", "without any index", "without an index"});
    const bool anyway = contains_any(lo, {"still", "always", "anyway", "instead", "only uses", "only used", "keeps using",
                                          "ends up on", "lands on", "without any index", "without an index", "on only gpu",
                                          "only on gpu", "only on the first", "on only the first", "everything on",
                                          "everything goes to", "are idle", "stay idle", "sit idle",
                                          // the library choosing the first GPU itself ("it will detect that it can run
                                          // on a GPU and then attempt to use cuda:0"; not the user's own "when I try
                                          // to use cuda:0 for training")
                                          "attempt to use", "attempts to use", "defaults to", "falls back to",
                                          "fall back to"});
    // Not where the same line tells the first GPU busy with other work ("but still GPU 0 OOM. My GPU
    // 0 and GPU 1 are running separate jobs"): other processes on it, read elsewhere. (A model of the
    // same program on it, "cuda:0 is occupied by an embedding model", is the placement's own work.)
    const size_t occupied = lo.find("occupied by");
    // (Another program's model is other work: "occupied by an Ollama model", "another model served with vLLM".)
    const bool by_own_model =
        occupied != std::string_view::npos && lo.substr(occupied + 11, 32).find("model") != std::string_view::npos &&
        !contains_any(lo.substr(occupied + 11, 48), {"process", "another user", "other user", "job", "ollama", "vllm", "server",
                                                     "served", "serving", "container", "another model", "other model",
                                                     "service", "notebook"});
    const bool busy = contains_any(lo, {"are running", "is running", "running separate", "running other", "running another",
                                        "busy", "other job", "other process", "other program"}) ||
                      (lo.find("occupied") != std::string_view::npos && !by_own_model);
    return first && anyway && !busy && !asks(lo);
  }

  // The number of items one call asks for, told in a sentence: "when requesting 20 samples", "asking
  // for 8 images", "16 images at once", "4 videos in a single request": the batch of that call (an
  // app's or a generator's requests set their batch). Not items counted over a run ("after it
  // generates 15 pictures"), nor one item ("requesting 1 sample").
  static bool items_per_call_told(std::string_view lo) {
    static constexpr std::string_view kItems[] = {"samples", "images", "pictures", "outputs", "completions", "videos",
                                                  "sequences", "generations", "variations"};
    // Not a rate or a count over a run ("keeps requesting 20 samples per minute ... after 40 minutes",
    // "saves 16 images at once every epoch"), nor samples of a signal ("480000 samples of audio", "16
    // kHz"): a length, not a batch.
    if (contains_any(lo, {"per minute", "per second", "per hour", "per day", "every ", "each ", "keeps ", "keep ",
                          "after ", "khz", " hz", "of audio", "of sound", "audio samples", "sample rate", "sampling rate"})) {
      return false;
    }
    auto items_at = [&](size_t p, size_t* end) {
      size_t e = p;
      int64_t v = 0;
      while (e < lo.size() && is_digit(lo[e]) && e - p < 6) v = v * 10 + (lo[e++] - '0');
      if (e == p || v < 2 || (p > 0 && (word_char(lo[p - 1]) || lo[p - 1] == '.'))) return false;
      if (e < lo.size() && lo[e] == ' ') ++e;
      for (std::string_view it : kItems) {
        if (lo.compare(e, it.size(), it) == 0) {
          *end = e + it.size();
          return true;
        }
      }
      return false;
    };
    for (std::string_view lead : {"requesting ", "request ", "asking for ", "ask for ", "asked for "}) {
      for (size_t p = lo.find(lead); p != std::string_view::npos; p = lo.find(lead, p + 1)) {
        size_t e = 0;
        if (word_starts_at(lo, p) && items_at(p + lead.size(), &e)) return true;
      }
    }
    for (size_t p = 0; p < lo.size(); ++p) {
      size_t e = 0;
      if (!is_digit(lo[p]) || !items_at(p, &e)) continue;
      const std::string_view after = lo.substr(e, 24);
      // Made at once by the call that fails (generated, rendered, sampled, processed), not saved or loaded.
      if (contains_any(after, {" at once", " in one go", " in one call", " in one request", " in a single request",
                               " in a single call", " per request", " per call", " per prompt", " in one batch"}) &&
          !contains_any(lo, {"save", "saving", "write", "writing", "load", "download", "upload"})) {
        return true;
      }
    }
    return false;
  }

  // copy_per_recompile(): in one clause a recompile (recompile, recompilation, "a new compile") each
  // or every time / per shape, and a copy or memory kept; not once, nor capped without effect.
  static bool copy_per_recompile(std::string_view lo) {
    // (Recompiles capped and the OOM still there: "... it still OOMs at step 0".)
    if (contains_any(lo, {"still oom", "still fail", "still run out"})) return false;
    for (std::string_view clause : clauses(lo)) {
      if (!contains_any(clause, {"recompil", "new compile", "re-compil", "retrac"})) continue;
      if (!contains_any(clause, {"each", "every", "per shape", "per call", "per step", "for each"})) continue;
      if (contains_any(clause, {"once", "capped", "didn't help", "did not help", "n't help"})) continue;
      if (contains_any(clause, {"cop", "memory", "kept", "keeps", "cache", "grow"})) return true;
    }
    return false;
  }

  // A rollback to an older version told as what made the failure go away: "When I switched back to
  // v0.3.7 this problem went away", "going back to 1.9.0 fixed it", "downgrading to 2.1 solved it":
  // the newer version's change. The version right after "to" ("v0.3.7", "1.9.0", "version 2",
  // "build 1.3.6", "the previous version"), not a setting ("back to fp32", "back to batch size 8",
  // "back to 24GB"); its success in the rest of the line, neither asked nor denied ("going back to
  // 1.9 did not help").
  static bool rollback_fixed(std::string_view lo) {
    for (std::string_view rb : {"switched back to ", "switching back to ", "went back to ", "going back to ", "go back to ",
                                "reverted to ", "reverting to ", "reverted back to ", "rolled back to ", "rolling back to ",
                                "downgraded to ", "downgrading to "}) {
      const size_t p = lo.find(rb);
      if (p == std::string_view::npos || asked_at(lo, p)) continue;
      std::string_view target = lo.substr(p + rb.size(), 32);
      const bool older_named = contains_any(target.substr(0, 20), {"the previous version", "the older version",
                                                                   "the old version", "an older version", "the earlier version",
                                                                   "the previous release", "the previous build"});
      // A version's number: "version" / "build" / "release" and digits ("version 2", "build 136"), or
      // digits with a dot ("1.9.0", "v0.3.7"); not a card ("V100"), a size ("512x512") or a count ("2 GPUs").
      bool numbered = false;
      for (std::string_view lead : {"version ", "build ", "release "}) {
        if (target.rfind(lead, 0) == 0 && target.size() > lead.size() && is_digit(target[lead.size()])) numbered = true;
      }
      if (!numbered) {
        if (!target.empty() && target[0] == 'v') target.remove_prefix(1);
        size_t d = 0;
        while (d < target.size() && is_digit(target[d])) ++d;
        numbered = d > 0 && d + 1 < target.size() && target[d] == '.' && is_digit(target[d + 1]);
      }
      if (!older_named && !numbered) continue;
      const std::string_view after = lo.substr(p);
      if (contains_any(after, {"went away", "goes away", "go away", "gone", "disappear", "fixed", "solved", "resolved",
                               "works", "worked", "no problem", "no issue", "no oom", "runs fine", "ran fine"}) &&
          !contains_any(after, {"didn't help", "did not help", "doesn't help", "does not help", "didn't fix", "did not fix",
                                "hasn't fixed", "has not fixed", "haven't fixed", "not fixed", "fixed nothing", "nothing fixed",
                                "not solve", "n't solve", "still"})) {
        return true;
      }
    }
    return false;
  }

  // The 24 characters after an upgrade's "to" name a version: a number, or "version" / "build" / "release"
  // / "the latest" / "the newest"; not a GPU ("to a 4090"), a model ("to the 13B model"), a size or the
  // memory ("to 64GB of RAM").
  static bool version_target(std::string_view target) {
    return (std::any_of(target.begin(), target.end(), [](char c) { return is_digit(c); }) ||
            contains_any(target, {"version", "the latest", "the newest", "build", "release"})) &&
           !gpu_named(target) && !contains_word(target, "model") && !contains_word(target, "gpu") &&
           !size_named(target, true) && !contains_word(target, "ram") && !contains_word(target, "memory");
  }

  // The versions up to one told working: a version's number ("0.9.11", "v2", "1.x"), then "and / or
  // older / earlier / below" (kUpToOneGate), then working words within a few words ("0.9.11 and older are
  // fine", "were fine", "up to 0.9.11 or earlier works fine", "2.1 and earlier don't OOM"). Not a batch's
  // or an image's threshold ("batch sizes of 8 and below work fine", "images of 768 and below are fine"):
  // a plain whole number is no version.
  static bool versions_up_to_one_working(std::string_view lo) {
    for (std::string_view gate : kUpToOneGate) {
      for (size_t g = lo.find(gate); g != std::string_view::npos; g = lo.find(gate, g + 1)) {
        size_t b = g;
        while (b > 0 && (is_alpha(lo[b - 1]) || is_digit(lo[b - 1]) || lo[b - 1] == '.' || lo[b - 1] == '_')) --b;
        const std::string_view number = lo.substr(b, g - b);
        const bool dotted = number.find('.') != std::string_view::npos && number.size() >= 3 && is_digit(number[0]) &&
                            number.back() != '.';
        const bool v_named = number.size() >= 2 && number[0] == 'v' && is_digit(number[1]);
        if (!dotted && !v_named) continue;
        const std::string_view after = lo.substr(g + gate.size(), 32);
        if (contains_any(after, {"work", "are fine", "were fine", "is fine", "was fine", "run fine", "ran fine", "seem",
                                 "don't", "do not", "didn't", "did not", "are ok", "were ok", "versions work"})) {
          return true;
        }
      }
    }
    return false;
  }

  // It worked before a new version, release or commit and fails (or needs more) after it: "one of
  // the latest commits blew up memory requirements", "Worked under the initial release ... After the
  // newest release it no longer works", "since upgrading to 2.3 it OOMs", "when I used 0.10 I could
  // ..., but when I upgrade to 0.11 ...". Not denied ("not a regression").
  static bool regression_told(std::string_view lo) {
    // The latest version told failing beside another told working: "the version of Deepscaler
    // compatible with veRL is operational, whereas the latest iteration of veRL throws an OOM error".
    // (The failure in the latest's own clause, the working one in another: "The latest version works,
    // but the older version 1.2 runs out of memory" is the reverse.)
    for (std::string_view latest : {"latest iteration", "latest version", "newest version", "latest build", "latest master"}) {
      const size_t p = lo.find(latest);
      if (p == std::string_view::npos) continue;
      const std::string_view own = clause_at(lo, p);
      const size_t own_at = static_cast<size_t>(own.data() - lo.data());
      const std::string_view others[] = {lo.substr(0, own_at), lo.substr(own_at + own.size())};
      auto working = [](std::string_view t) {
        return contains_any(t, {"operational", "works", "worked", "working", "runs fine", "ran fine", "no problem"});
      };
      if (contains_any(own, {"throw", "fail", "oom", "out of memory", "crash"}) && !working(own) &&
          (working(others[0]) || working(others[1])) &&
          !contains_any(lo, {"not a regression", "n't a regression", " not working", "n't working", "not work", "n't work"})) {
        return true;
      }
    }
    // Chinese: 最新版 (the latest version) told failing (报错 / OOM / 爆显存 / 显存不足), 旧版 / 老版 / 之前的版本
    // (the old / earlier version) told running normally (正常 / 没问题 / 可以).
    if (contains_any(lo, {"\xe6\x9c\x80\xe6\x96\xb0\xe7\x89\x88"}) &&
        contains_any(lo, {"\xe6\x97\xa7\xe7\x89\x88", "\xe8\x80\x81\xe7\x89\x88", "\xe4\xb9\x8b\xe5\x89\x8d\xe7\x9a\x84\xe7\x89\x88"}) &&
        contains_any(lo, {"\xe6\x8a\xa5\xe9\x94\x99", "oom", "\xe7\x88\x86\xe6\x98\xbe\xe5\xad\x98",
                          "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3"}) &&
        contains_any(lo, {"\xe6\xad\xa3\xe5\xb8\xb8", "\xe6\xb2\xa1\xe9\x97\xae\xe9\xa2\x98", "\xe5\x8f\xaf\xe4\xbb\xa5"})) {
      return true;
    }
    // The upgrade to a version told as when the change came, against the use before it, with a
    // contrast and a failure or a lesser limit after it: "When I used the pytorch 0.10, I can set the
    // batchsize to be 512 ... But when I upgrade to pytorch 0.11, the maximum batchsize I can set is
    // only around 30". A version: a number or "version" / "the latest" in the 24 characters after
    // "to", not a GPU ("when I upgraded to a 4090"), a model ("to the 13B model") nor the memory
    // ("when I upgraded to 64GB RAM"). Not asked.
    for (std::string_view up : {"when i upgrade", "when i update", "after i upgrade", "after i update", "once i upgrade",
                                "once i update", "when we upgrade", "when we update", "after we upgrade", "after we update"}) {
      for (size_t p = lo.find(up); p != std::string_view::npos; p = lo.find(up, p + 1)) {
        const size_t to = lo.find(" to ", p + up.size());
        if (to == std::string_view::npos || to > p + up.size() + 2 || asked_at(lo, p)) continue;
        const std::string_view target = lo.substr(to + 4, 24);
        const bool version = version_target(target);
        const std::string_view after = lo.substr(to);
        if (version &&
            contains_any(lo.substr(0, p), {"when i used", "when i was using", "when using", "with the old", "before upgrading",
                                           "before the upgrade", "previously"}) &&
            contains_any(lo, {" but ", "however"}) &&
            contains_any(after, {"only", "out of memory", "oom", "fail", "less", "smaller", "more memory", "crash", "error",
                                 "can't", "cannot", "no longer"})) {
          return true;
        }
      }
    }
    // The change told as when it began ("Since upgrading to 2.3 I get this", "Since last update OOM",
    // "after the latest update"), and the versions up to one told working ("Version 0.9.11 and earlier
    // seems to work fine", "and below work fine"): each list opens the reading and, past the exclusions
    // below, settles it.
    static constexpr std::string_view kChangeSince[] = {
        "since upgrading", "since updating", "since the update", "since the upgrade", "since last update",
        "since the last update", "since the latest update", "since latest update", "since the last upgrade",
        "since the latest upgrade", "since the new update", "since the recent update", "since i updated",
        "since i upgraded", "after the last update", "after the latest update"};
    auto named = [&](const auto& list) {
      return std::any_of(std::begin(list), std::end(list), [&](std::string_view w) { return lo.find(w) != std::string_view::npos; });
    };
    const bool change_since = named(kChangeSince);
    const bool up_to_one_working = versions_up_to_one_working(lo);
    if (!change_since && !up_to_one_working &&
        !contains_any(lo, {"latest commit", "new commit", "recent commit", "newest release", "new release", "latest release",
                           "initial release", "previous release", "previous version", "older version", "earlier version",
                           "old version", "prior to the new", "after the update", "after updating", "after upgrading",
                           "after the upgrade",
                           // "I updated to build 1.3.9 of WanVideoWrapper and everything OOMs now"
                           "i updated to", "i upgraded to", "we updated to", "we upgraded to"})) {
      return false;
    }
    // ("I updated to" a version: not "I upgraded to 64GB of RAM", "to a 4090"; nor an update tried as the fix,
    // "I updated to 2.4 but it still OOMs now".)
    for (std::string_view up : {"i updated to ", "i upgraded to ", "we updated to ", "we upgraded to "}) {
      const size_t p = lo.find(up);
      if (p == std::string_view::npos) continue;
      if (!version_target(lo.substr(p + up.size(), 24)) || contains_word(lo, "still")) return false;
    }
    // (A dataset's new release is no library's change.)
    if (contains_any(lo, {"not a regression", "n't a regression", "not the update", "not the upgrade", "dataset", "data release"})) {
      return false;
    }
    // (Not the user's own script or post updated: "since the last update of my training script", "EDIT 2:
    // since the last update I also tried".)
    if (contains_any(lo, {"update of my", "update to my", "update of the script"}) || contains_word(lo, "edit")) return false;
    if (change_since) return true;
    if (up_to_one_working) return true;
    // ("same code no problem with previous version v4.x": fine before, told as no problem.)
    return contains_any(lo, {"worked", "was working", "no longer", "blew up", "blow up", "increased memory", "more memory",
                             "now fails", "now it fails", "broke", "started to", "began to", "no problem", "no issue",
                             "was fine", "ran fine", "works fine", "work fine", "didn't happen", "did not happen",
                             "ooms now", "now ooms", "oom now", "everything ooms", "was previously", "before i could"});
  }

  // Only one of several GPUs told used, in one clause (see the reading above), in English or Chinese.
  static bool only_one_of_several_gpus_used(std::string_view lo) {
    if (contains_any(lo, {"\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1"})) {  // 一张卡 (one card)
      // 只 (only) with 利用 / 使用 / 用了 (used), and two cards / a pair / several cards named: 两张 / 双 / 多卡.
      return contains_any(lo, {"\xe5\x8f\xaa"}) &&
             contains_any(lo, {"\xe5\x88\xa9\xe7\x94\xa8", "\xe4\xbd\xbf\xe7\x94\xa8", "\xe7\x94\xa8\xe4\xba\x86"}) &&
             contains_any(lo, {"\xe4\xb8\xa4\xe5\xbc\xa0", "\xe5\x8f\x8c", "\xe5\xa4\x9a\xe5\x8d\xa1"}) &&
             !contains_any(lo, {"\xef\xbc\x9f", "?", "\xe5\x90\x97"});  // ？, ?, 吗: asked
    }
    // (Each phrase below holds "gpu", "card" or "using only one of the".)
    if (lo.find("gpu") == std::string_view::npos && lo.find("card") == std::string_view::npos &&
        lo.find("using only one of the") == std::string_view::npos) {
      return false;
    }
    for (std::string_view c : clauses(lo)) {
      // (Not each rank on its own GPU, as DDP places them: "each process uses only one GPU as expected".)
      if (asks(c) || contains_any(c, {"fix", "solv", "work around", "workaround", "instead", "each process", "per process",
                                      "each rank", "per rank", "as expected"})) {
        continue;
      }
      if (contains_any(c, {"only one gpu is used", "only one gpu is being used", "only one gpu is utilized",
                           "only uses one gpu", "only using one gpu", "only uses one of the gpus", "only using one of the gpus",
                           "only 1 gpu is used", "only the first gpu is used", "uses only one gpu", "using only one of the",
                           "second gpu is not used", "second gpu is never used", "other gpu is not used",
                           "only one card is used", "only one of the gpus is used"})) {
        return true;
      }
    }
    return false;
  }

  // A run set up for several GPUs moved onto one, the one GPU its destination, in one clause: "I
  // changed the gpus for a single one", "running it on one GPU instead of 4 GPUs"; not the other way
  // ("we moved from a single GPU to 4 GPUs"), asked, nor with the batch told divided for it.
  static bool several_gpus_setup_on_one(std::string_view lo) {
    for (std::string_view clause : clauses(lo)) {
      if (clause.find("gpus") == std::string_view::npos || asks(clause)) continue;
      if (contains_any(clause, {"from a single", "from one gpu", "from 1 gpu", "divided", "split the batch", "per-device",
                                "per device"})) {
        continue;
      }
      if (contains_any(clause, {"for a single one", "to a single one", "to a single gpu", "to one gpu", "to 1 gpu",
                                "on one gpu instead", "on a single gpu instead", "on 1 gpu instead", "one gpu instead of",
                                "single gpu instead of"})) {
        return true;
      }
    }
    return false;
  }

  // A smaller or shorter input told not helping, in one clause ("Choosing smaller pictures doesn't
  // help either", "resizing the images to 256 made no difference", "even shorter sequences still OOM").
  static bool smaller_input_did_not_help(std::string_view lo) {
    for (std::string_view clause : clauses(lo)) {
      if (contains_any(clause, {"smaller", "shorter", "lower resolution", "resiz", "downscal", "downsampl", "truncat"}) &&
          contains_any(clause, {"n't help", "not help", "no help", "neither help", "helped nothing", "no effect", "no difference",
                                "n't change", "not change", "no change", "still oom", "still fail", "still run out",
                                "still get", "it fails", "it still"})) {
        return true;
      }
    }
    return false;
  }

  // The resolution or the size (分辨率, 尺寸) itself told normal (正常) within the 12 bytes after it, no verb
  // of running between: "分辨率也是很正常的1024x1024" (the resolution is quite normal); not "512分辨率训练正常"
  // (training at 512 was fine), nor the code told not working normally elsewhere.
  static bool zh_size_told_normal(std::string_view lo) {
    for (std::string_view w : {"\xe5\x88\x86\xe8\xbe\xa8\xe7\x8e\x87", "\xe5\xb0\xba\xe5\xaf\xb8"}) {
      for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + w.size())) {
        const std::string_view after = lo.substr(p + w.size(), 18);
        const size_t normal = after.find("\xe6\xad\xa3\xe5\xb8\xb8");
        if (normal == std::string_view::npos || normal > 12) continue;
        if (contains_any(after.substr(0, normal), {"\xe8\xae\xad\xe7\xbb\x83", "\xe8\xbf\x90\xe8\xa1\x8c", "\xe8\xb7\x91"})) {
          continue;
        }
        return true;
      }
    }
    return false;
  }

  // A smaller input told not helping, in Chinese: a concession (即便 / 即使 / 就算 / 哪怕: even if) that,
  // in its own clause, names the input's size (分辨率 resolution, 尺寸 size, 长度 length, or a size such as
  // "512x512") lowered or set (设 / 改 / 调 / 降 / 减, 更小), then the failure told going on
  // (zh_failure_goes_on(), within 36 bytes): "即便设为512x512 我还是收到了CUDA out of memory" (even set to
  // 512x512, I still got the OOM). Not asked (吗, ？).
  static bool zh_smaller_input_in_vain(std::string_view lo) {
    size_t even = std::string_view::npos;
    for (std::string_view e : {"\xe5\x8d\xb3\xe4\xbe\xbf", "\xe5\x8d\xb3\xe4\xbd\xbf", "\xe5\xb0\xb1\xe7\xae\x97",
                               "\xe5\x93\xaa\xe6\x80\x95"}) {
      even = std::min(even, lo.find(e));
    }
    if (even == std::string_view::npos) return false;
    const size_t still = zh_failure_goes_on(lo, even, 36);
    if (still == std::string_view::npos) return false;
    std::string_view concession = lo.substr(even, still - even);
    // (The concession's own clause: "即使batch size设为1，分辨率2048x2048也会爆显存" concedes the batch.)
    if (const size_t comma = concession.find("\xef\xbc\x8c"); comma != std::string_view::npos) concession = concession.substr(0, comma);
    // (Lowered: a verb of setting or lowering, or 更小 (smaller); not asked (吗, ？) nor the failure denied
    // before its word (也不会爆显存).)
    if (!contains_any(concession, {"\xe8\xae\xbe", "\xe6\x94\xb9", "\xe8\xb0\x83", "\xe9\x99\x8d", "\xe5\x87\x8f",
                                   "\xe6\x9b\xb4\xe5\xb0\x8f"}) ||
        contains_any(lo.substr(even), {"\xe5\x90\x97", "\xef\xbc\x9f", "?"})) {
      return false;
    }
    bool sized = contains_any(concession, {"\xe5\x88\x86\xe8\xbe\xa8\xe7\x8e\x87", "\xe5\xb0\xba\xe5\xaf\xb8",
                                           "\xe9\x95\xbf\xe5\xba\xa6"});
    for (size_t x = concession.find('x'); !sized && x != std::string_view::npos; x = concession.find('x', x + 1)) {
      sized = x > 0 && is_digit(concession[x - 1]) && x + 1 < concession.size() && is_digit(concession[x + 1]);
    }
    return sized;
  }

  // A video told by its count of frames, 100 or more, as one input ("videos which are more than 300
  // frames", "Cuda OOM (1k+ frame video)", "frame number: 1680", "a 2k-frame clip"): a video model's
  // activations (per-frame feature maps, attention over every frame's tokens) grow with it. Not a
  // rate or a stride ("30 frames per second", "every 100 frames", "frames/s"), nor frames handled one at
  // a time ("each of the 500 frames", "per frame").
  static bool many_frames(std::string_view lo) {
    // (Nor a stream's frames, each fed as it comes, one at a time, nor a test told passing: "cover long-running
    // streaming with a 20,000-frame regression", "20,000-frame soak passes after the fix"; nor a progress log's
    // count beside its memory, "frame_count=1680 gpu_mem=11.1GB".)
    if (contains_any(lo, {"per frame", "per-frame", "each frame", "frame by frame", "frame-by-frame", "each of the",
                          "frame at a time", "mem=", "memory=",
                          "every frame", "streaming", " stream ", "soak", " passes", " passed", "sample ", "sampled", "chunk",
                          "sliding window", "without any issue", "without issue", "fps=", "data frame", "dataframe"})) {
      return false;
    }
    for (size_t ev = lo.find("every "); ev != std::string_view::npos; ev = lo.find("every ", ev + 6)) {
      if (ev + 6 < lo.size() && is_digit(lo[ev + 6])) return false;  // a stride: "every 100 frames"
    }
    for (size_t at = lo.find("frame"); at != std::string_view::npos; at = lo.find("frame", at + 5)) {
      size_t e = at + 5;
      if (e < lo.size() && lo[e] == 's') ++e;
      const std::string_view after = lo.substr(e, 12);
      if (after.rfind(" per", 0) == 0 || after.rfind("/s", 0) == 0 || after.rfind(" / s", 0) == 0 ||
          after.rfind(" a second", 0) == 0 || after.rfind(" each", 0) == 0) {
        continue;
      }
      // "frame number: 1680", "frames: 1680", "num frames = 1680": the count after the word, set off by ':' or
      // '=' (not an index, "after around frame 100").
      size_t k = e;
      if (lo.compare(k, 7, " number") == 0) k += 7;
      // ("frame_count = 1680", "frameCount = 1680", "a frame count of 1680")
      bool count_of = false;
      for (std::string_view count : {"_count", "_num", "_number", " count of", " count", "count"}) {
        if (lo.compare(k, count.size(), count) == 0) {
          k += count.size();
          count_of = count == " count of";
          break;
        }
      }
      while (k < lo.size() && lo[k] == ' ') ++k;
      const bool set_off = count_of || (k < lo.size() && (lo[k] == ':' || lo[k] == '='));
      while (k < lo.size() && (lo[k] == ' ' || lo[k] == ':' || lo[k] == '=')) ++k;
      size_t d = k;
      while (d < lo.size() && is_digit(lo[d])) ++d;
      if (set_off && d > k && d - k <= 6 && (d == lo.size() || !is_alpha(lo[d])) &&
          std::stol(std::string(lo.substr(k, d - k))) >= 100) {
        return true;
      }
      // "300 frames", "1k+ frame", "2k-frame", "1,000 frames": the count before the word.
      size_t b = at;
      if (b > 0 && (lo[b - 1] == ' ' || lo[b - 1] == '-')) --b;
      if (b > 0 && lo[b - 1] == '+') --b;
      double mult = 1;
      if (b > 0 && lo[b - 1] == 'k') {
        mult = 1000;
        --b;
      }
      size_t f = b;
      while (f > 0 && (is_digit(lo[f - 1]) || lo[f - 1] == ',' || (mult > 1 && lo[f - 1] == '.'))) --f;
      if (f == b || (f > 0 && (word_char(lo[f - 1]) || lo[f - 1] == '.'))) continue;
      std::string digits;
      for (size_t i = f; i < b; ++i) if (lo[i] != ',') digits.push_back(lo[i]);
      if (digits.empty() || digits.size() > 7 || !is_digit(digits.front())) continue;
      if (std::stod(digits) * mult >= 100) return true;
    }
    return false;
  }

  // Chinese: a video told by its count of frames, 100 or more, the count right before 帧 (frames): "超过300帧
  // 的视频就会显存不足" (videos over 300 frames run out of memory), "300多帧" (300-odd). Not an index (第300帧,
  // the 300th frame), a rate or frames handled one at a time:
  // 每帧 / 逐帧 (per frame, frame by frame), 帧率 / 帧每秒 / 帧/秒 (a rate), 抽帧 / 采样 (frames sampled), 分段 /
  // 切片 (in chunks), 流式 (streamed).
  static bool zh_many_frames(std::string_view lo) {
    static constexpr std::string_view kFrame = "\xe5\xb8\xa7";  // 帧
    if (contains_any(lo, {"\xe6\xaf\x8f\xe5\xb8\xa7", "\xe9\x80\x90\xe5\xb8\xa7", "\xe5\xb8\xa7\xe7\x8e\x87",
                          "\xe5\xb8\xa7\xe6\xaf\x8f\xe7\xa7\x92", "\xe5\xb8\xa7/", "\xe6\x8a\xbd\xe5\xb8\xa7",
                          "\xe9\x87\x87\xe6\xa0\xb7", "\xe5\x88\x86\xe6\xae\xb5", "\xe5\x88\x87\xe7\x89\x87",
                          "\xe6\xb5\x81\xe5\xbc\x8f", "fps"})) {
      return false;
    }
    for (size_t at = lo.find(kFrame); at != std::string_view::npos; at = lo.find(kFrame, at + kFrame.size())) {
      size_t b = at;
      while (b > 0 && lo[b - 1] == ' ') --b;
      if (b >= 3 && lo.compare(b - 3, 3, "\xe5\xa4\x9a") == 0) b -= 3;  // 300多帧: 300-odd frames
      size_t f = b;
      while (f > 0 && is_digit(lo[f - 1])) --f;
      if (f == b || b - f > 6 || (f > 0 && (word_char(lo[f - 1]) || lo[f - 1] == '.'))) continue;
      if (f >= 3 && lo.compare(f - 3, 3, "\xe7\xac\xac") == 0) continue;  // 第300帧: the 300th frame, an index
      if (std::stol(std::string(lo.substr(f, b - f))) >= 100) return true;
    }
    return false;
  }

  static bool long_inputs(std::string_view lo, bool input_word, const CharPairs& pairs) {
    // Grouped by a word every phrase of the group holds: a line without it costs one find.
    auto has = [&](std::string_view p) { return pairs.may_contain(p) && lo.find(p) != std::string_view::npos; };
    auto any = [&](std::initializer_list<std::string_view> ps) {
      for (std::string_view p : ps) {
        if (has(p)) return true;
      }
      return false;
    };
    // "Too long" said of time ("compiled results lived too long", "it takes too long"): no input's length.
    const size_t tl = has("too long") ? lo.find("too long") : std::string_view::npos;
    const bool too_long_of_time =
        tl != std::string_view::npos &&
        contains_any(lo.substr(tl > 12 ? tl - 12 : 0, tl > 12 ? 12 : tl),
                     {"lived", "live ", "take", "took", "taking", "wait", "ran ", "run ", "runs ", "stay", "kept", "last"});
    const bool too_long_of_input = tl != std::string_view::npos && !too_long_of_time;
    if (has("long") && (too_long_of_input || any({"long sample", "long sequence", "long input", "long output", "long text",
                            "long prompt", "long context", "longer sequence", "longer input", "long audio", "longer audio",
                            "long video", "longer video", "long document", "longer document", "long recording",
                            // one long piece of speech, music or text: its length is the sequence
                            "long song", "longer song", "long speech", "long lecture", "long podcast", "long transcript",
                            "long article", "long paragraph", "long passage", "long sentence", "longer sentence",
                            "long utterance", "longer utterance",
                            // a forecast or simulation rolled out over a longer horizon ("when I try to predict over a
                            // longer lead time, such as 10 days"), a longer time axis ("a longer time dimension"):
                            // autoregressive steps or frames kept for the whole rollout
                            "longer lead time", "longer horizon", "longer forecast", "longer rollout", "long rollout",
                            "longer time dimension", "longer time series", "long time series", "longer trajector"}))) {
      return true;
    }
    // More steps on the time axis ("fails when I predict more time steps", "increasing the time steps"): the
    // same horizon, counted.
    if (has("tim") && any({"more time steps", "more timesteps", "more forecast steps", "more rollout steps",
                            "increasing the time steps", "increasing the timesteps", "increase the time steps",
                            "increase the timesteps", "increasing the timing", "longer time steps"})) {
      return true;
    }
    // A document told large as the input ("applying the coreference to large document causes out of memory"):
    // the word itself ("documents", not "documentation"), not documents truncated or filtered to a bound ("Large
    // documents are truncated to 512 tokens"), nor the documents' vectors or their collection ("applying
    // UMAP to large document vectors", "a large document corpus").
    if (has("document") && !any({"truncated to", "are truncated", "is truncated", "filtered to", "are filtered"})) {
      for (std::string_view p : {"large document", "big document", "huge document"}) {
        const size_t at = lo.find(p);
        if (at == std::string_view::npos) continue;
        size_t e = at + p.size();
        if (e < lo.size() && lo[e] == 's') ++e;
        if (e < lo.size() && is_alpha(lo[e])) continue;
        size_t h = e;
        while (h < lo.size() && lo[h] == ' ') ++h;
        size_t he = h;
        while (he < lo.size() && is_alpha(lo[he])) ++he;
        if (in_list(lo.substr(h, he - h), {"vector", "vectors", "corpus", "corpora", "collection", "collections", "store", "index",
                                           "dataset", "datasets"})) {
          continue;
        }
        return true;
      }
    }
    // A recording told large as the input ("testing with large wav files say 65 MB", "a huge audio
    // file", "big videos"): its duration is the sequence. One recording, not a collection ("a large
    // audio dataset", "big video corpus").
    if (any({"large ", "big ", "huge ", "larger ", "bigger "})) {
      for (std::string_view size : {"large ", "big ", "huge ", "larger ", "bigger "}) {
        for (size_t at = lo.find(size); at != std::string_view::npos; at = lo.find(size, at + 1)) {
          if (!word_starts_at(lo, at)) continue;
          const std::string_view rest = lo.substr(at + size.size(), 40);
          size_t e = 0;
          while (e < rest.size() && word_char(rest[e])) ++e;
          const std::string_view what = rest.substr(0, e);
          if (!in_list(what, {"wav", "wavs", "audio", "audios", "video", "videos", "mp3", "mp4", "flac", "recording",
                              "recordings"})) {
            continue;
          }
          // The recording itself: the media word closing the phrase ("large wav (65 MB)", "big videos.")
          // or a noun of one input after it ("large wav files", "a huge audio clip"); not "larger video
          // memory", "a bigger video card", "a large audio dataset", "a large video language model".
          size_t h = e;
          while (h < rest.size() && rest[h] == ' ') ++h;
          size_t he = h;
          while (he < rest.size() && is_alpha(rest[he])) ++he;
          const std::string_view head = rest.substr(h, he - h);
          if (head.empty() || in_list(head, {"file", "files", "clip", "clips", "input", "inputs", "sample", "samples", "track",
                                             "tracks", "stream", "streams", "segment", "segments", "sequence", "sequences"})) {
            return true;
          }
        }
      }
    }
    if (has("\xe8\xbf\x87\xe9\x95\xbf")) return true;
    // Inputs told not truncated ("Untruncated text calibration produces a 16 GiB OOM", "without
    // truncation"): their whole length reaches the model.
    if (has("truncat") && any({"untruncated", "without truncation", "no truncation", "not truncated", "n't truncated", "forgot truncation",
                               "forgot to truncate", "forgot to set truncation", "truncation=false", "truncation = false"})) {
      return true;
    }
    // A large protein (its residues are a structure model's sequence: "predict a large protein",
    // "larger proteins fail").
    // (Not a large protein corpus, dataset or database: a collection, not one input.)
    if (has("protein") && any({"large protein", "larger protein", "big protein", "bigger protein", "long protein",
                               "longer protein"}) &&
        !any({"protein corpus", "protein dataset", "protein database", "protein data", "protein collection"})) {
      return true;
    }
    // zh: 大蛋白 / 大的蛋白 (a large protein: 很大的蛋白, 较大的蛋白).
    if (has("\xe8\x9b\x8b\xe7\x99\xbd") && any({"\xe5\xa4\xa7\xe8\x9b\x8b\xe7\x99\xbd", "\xe5\xa4\xa7\xe7\x9a\x84\xe8\x9b\x8b\xe7\x99\xbd"})) {
      return true;
    }
    // A recording an hour or more long: "one hour of audio", "a 2-hour video", "hour-long recording",
    // "a 3 hour podcast"; zh "一小时的音频" (an hour of audio), "小时音频", "长音频" / "长视频" (long
    // audio / video).
    // One recording, not a corpus counted in hours ("680,000 hours of audio", "clips under 30
    // seconds", zh 每条 / 切成: each / cut into).
    if ((has("hour") && any({"hour of audio", "hour audio", "hour-long", "hour long", "hour of video", "hour video",
                             "hour recording", "hour podcast", "hour lecture", "hour meeting"})) ||
        any({"\xe5\xb0\x8f\xe6\x97\xb6\xe7\x9a\x84\xe9\x9f\xb3\xe9\xa2\x91", "\xe5\xb0\x8f\xe6\x97\xb6\xe9\x9f\xb3\xe9\xa2\x91",
             "\xe9\x95\xbf\xe9\x9f\xb3\xe9\xa2\x91", "\xe9\x95\xbf\xe8\xa7\x86\xe9\xa2\x91"})) {
      const bool pieces = any({"hours of", "clip", "segment", "window", "each ", "every ", "in total", "dataset", "corpus",
                               "trained on", "\xe6\xaf\x8f\xe6\x9d\xa1", "\xe5\x88\x87\xe6\x88\x90", "\xe5\x88\x87\xe5\x88\x86"});
      if (!pieces) return true;
    }
    // An input's duration of 30 seconds or more, told with "duration" ("pretraining dataset has max
    // duration 56 seconds", "audio duration: 45 s"): longer than Whisper's 30-second window and
    // LibriSpeech's longest utterances (~35 s), where speech models' activations outgrow what
    // ordinary clips (15-20 s) need; not the run's own time ("epoch duration 300 seconds", "step
    // took 45 s", a timeout, a training, run, job or profiler duration, clips filtered by it).
    // Minutes count too ("a duration of 2 minutes"), and ffmpeg's "Duration: 00:01:45.32".
    if (has("duration") && seconds_at_least(lo, 30) &&
        !any({"epoch", "step", "took", "elapsed", "timeout", "time limit", "training time", "iteration", "profil", "warmup",
              "filter", "benchmark", "latency"}) &&
        !contains_word(lo, "training") && !contains_word(lo, "run") && !contains_word(lo, "total") &&
        !contains_word(lo, "job")) {
      return true;
    }
    if (has("larg") && any({"large sequence", "large image", "larger image", "large resolution", "large input", "larger input"})) {
      return true;
    }
    if (has("big") && any({"big image", "bigger image"})) return true;
    if (has("image") && any({"huge image", "smaller image", "image is too", "images are too"})) return true;
    if (has("resolution") && any({"high resolution", "higher resolution", "high-resolution"})) return true;
    // Chinese: recordings told minutes long, a number of 分钟 (minutes) on a line that names the
    // recordings or the longest of them (音频 / 语音 / 录音 / 视频 / 条数据 / 最长: "总共有52条数据，大部分在3~5分钟，
    // 最长为11分钟", 52 items, most 3 to 5 minutes, the longest 11): each fed whole, activations that grow
    // with its length; not the run's own time (分钟后 / 分钟之后 "after N minutes", 跑了 / 运行了 / 训练了 "ran
    // for", 每 "per": a rate).
    if (zh_minutes_long_inputs(lo)) return true;
    if (has("min") && minutes_long_recording(lo)) return true;  // (every reading of it needs "min")
    // (Also hours and minutes written together, "a 2h30m podcast".)
    const bool hours_minutes = [&] {
      for (size_t h = lo.find('h', 1); h != std::string_view::npos && h + 1 < lo.size(); h = lo.find('h', h + 1)) {
        if (is_digit(lo[h - 1]) && is_digit(lo[h + 1])) return true;
      }
      return false;
    }();
    if ((has("hour") || has("hr") || has("h ") || has("h-") || hours_minutes) && hours_long_recording(lo)) return true;
    if (has("word") && words_long_input(lo)) return true;
    if (has("frame") && many_frames(lo)) return true;
    if (has("\xe5\xb8\xa7") && zh_many_frames(lo)) return true;  // 帧 (frames)
    // Chinese: an input noun with 长 (long) just before or after it: "比较长的音频" (rather long audio),
    // "音频较长" (the audio is long), "文本太长", "较长的序列", "视频很长"; not 增长 / 成长 (growth) nor
    // 长度 alone (the length, told long or short elsewhere).
    if (has("\xe9\x95\xbf") && zh_long_input(lo)) return true;
    // Chinese: "分辨率" (resolution), "图片尺寸" / "图像尺寸" / "输入尺寸" (picture / image / input size),
    // "图片大小" (picture size), "长序列" (long sequence), "长文本" (long text); not the resolution or size
    // told normal (zh_size_told_normal(): "分辨率也是很正常的1024x1024") nor lowered in vain
    // (zh_smaller_input_in_vain()).
    if (any({"\xe5\x88\x86\xe8\xbe\xa8\xe7\x8e\x87", "\xe5\x9b\xbe\xe7\x89\x87\xe5\xb0\xba\xe5\xaf\xb8",
             "\xe5\x9b\xbe\xe5\x83\x8f\xe5\xb0\xba\xe5\xaf\xb8", "\xe8\xbe\x93\xe5\x85\xa5\xe5\xb0\xba\xe5\xaf\xb8",
             "\xe5\x9b\xbe\xe7\x89\x87\xe5\xa4\xa7\xe5\xb0\x8f", "\xe9\x95\xbf\xe5\xba\x8f\xe5\x88\x97",
             "\xe9\x95\xbf\xe6\x96\x87\xe6\x9c\xac"}) &&
        !zh_size_told_normal(lo) && !zh_smaller_input_in_vain(lo)) {
      return true;
    }
    // A volume's depth told as its count of slices, 64 or more ("tiff files with 217 slices", "a
    // 300-slice stack", "512 z-slices"): one 3D input, not a batch of samples; a 3D convolution's
    // output holds a value per voxel and channel, so its activations grow linearly with the depth.
    // (Not slices each fed alone, "155 slices each; I train a 2D U-Net on single slices", nor a TPU
    // pod's slice, "a TPU v4-128 slice".)
    if (has("slice") && !contains_word(lo, "2d") && !contains_word(lo, "tpu")) {
      for (size_t at = lo.find("slice"); at != std::string_view::npos; at = lo.find("slice", at + 5)) {
        size_t b = at;
        if (b >= 2 && lo.compare(b - 2, 2, "z-") == 0) b -= 2;
        if (b == 0 || (lo[b - 1] != ' ' && lo[b - 1] != '-')) continue;
        size_t d = b - 1;
        while (d > 0 && is_digit(lo[d - 1])) --d;
        if (d == b - 1 || b - 1 - d > 5 || (d > 0 && (word_char(lo[d - 1]) || lo[d - 1] == '.' || lo[d - 1] == '-'))) continue;
        size_t e = at + 5;
        while (e < lo.size() && is_alpha(lo[e])) ++e;  // "slices"
        const std::string_view after = lo.substr(e, 8);
        if (after.rfind(" each", 0) == 0 || after.rfind(" per ", 0) == 0) continue;
        if (std::stoi(std::string(lo.substr(d, b - 1 - d))) >= 64) return true;
      }
    }
    return has("higher dimension") || (input_word && sized_input(lo));
  }

  // An input noun (音频 audio, 视频 video, 文本 text, 序列 sequence, 句子 sentence, 语音 speech, 上下文
  // context) with 长 (long) within three characters before it or two after it (see long_inputs()).
  static bool zh_long_input(std::string_view lo) {
    constexpr std::string_view kLong = "\xe9\x95\xbf";  // 长
    static constexpr std::string_view kNouns[] = {"\xe9\x9f\xb3\xe9\xa2\x91", "\xe8\xa7\x86\xe9\xa2\x91",
                                                  "\xe6\x96\x87\xe6\x9c\xac", "\xe5\xba\x8f\xe5\x88\x97",
                                                  "\xe5\x8f\xa5\xe5\xad\x90", "\xe8\xaf\xad\xe9\x9f\xb3",
                                                  "\xe4\xb8\x8a\xe4\xb8\x8b\xe6\x96\x87"};
    auto long_at = [&](size_t p) {
      if (lo.compare(p, kLong.size(), kLong) != 0) return false;
      // 增长 / 成长 (growth), 不长 (not long) or 最长 (at most: "文本最长128个字") before it; 度 (长度:
      // length) or a number after it ("视频长10秒": a length stated).
      const bool before = p >= 3 && (lo.compare(p - 3, 3, "\xe5\xa2\x9e") == 0 || lo.compare(p - 3, 3, "\xe6\x88\x90") == 0 ||
                                     lo.compare(p - 3, 3, "\xe4\xb8\x8d") == 0 || lo.compare(p - 3, 3, "\xe6\x9c\x80") == 0);
      size_t q = p + 3;
      while (q < lo.size() && lo[q] == ' ') ++q;
      const bool after = lo.compare(p + 3, 3, "\xe5\xba\xa6") == 0 || (q < lo.size() && is_digit(lo[q]));
      return !before && !after;
    };
    for (std::string_view noun : kNouns) {
      for (size_t p = lo.find(noun); p != std::string_view::npos; p = lo.find(noun, p + 1)) {
        for (size_t back = 3; back <= 9 && back <= p; back += 3) {
          if (long_at(p - back)) return true;
        }
        for (size_t ahead = 0; ahead <= 3; ahead += 3) {
          if (long_at(p + noun.size() + ahead)) return true;
        }
      }
    }
    return false;
  }

  // Recordings told minutes long in Chinese (see the reading in long_inputs()).
  static bool zh_minutes_long_inputs(std::string_view lo) {
    static constexpr std::string_view kMinutes = "\xe5\x88\x86\xe9\x92\x9f";  // 分钟
    if (lo.find(kMinutes) == std::string_view::npos) return false;
    if (!contains_any(lo, {"\xe9\x9f\xb3\xe9\xa2\x91", "\xe8\xaf\xad\xe9\x9f\xb3", "\xe5\xbd\x95\xe9\x9f\xb3",
                           "\xe8\xa7\x86\xe9\xa2\x91", "\xe6\x9d\xa1\xe6\x95\xb0\xe6\x8d\xae",
                           "\xe6\x9c\x80\xe9\x95\xbf"}) ||  // 音频, 语音, 录音, 视频, 条数据, 最长
        contains_any(lo, {"\xe5\x88\x86\xe9\x92\x9f\xe5\x90\x8e", "\xe5\x88\x86\xe9\x92\x9f\xe4\xb9\x8b\xe5\x90\x8e",
                          "\xe8\xb7\x91\xe4\xba\x86", "\xe8\xbf\x90\xe8\xa1\x8c\xe4\xba\x86",
                          "\xe8\xae\xad\xe7\xbb\x83\xe4\xba\x86", "\xe6\xaf\x8f",  // 分钟后, 分钟之后, 跑了, 运行了, 训练了, 每
                          // 等 (wait), 花了 / 用了 / 耗时 (took), 不到 / 以内 (under: short recordings)
                          "\xe7\xad\x89", "\xe8\x8a\xb1\xe4\xba\x86", "\xe7\x94\xa8\xe4\xba\x86",
                          "\xe8\x80\x97\xe6\x97\xb6", "\xe4\xb8\x8d\xe5\x88\xb0", "\xe4\xbb\xa5\xe5\x86\x85"})) {
      return false;
    }
    // A number (digits, or a range "3~5", "3-5") right before 分钟.
    for (size_t p = lo.find(kMinutes); p != std::string_view::npos; p = lo.find(kMinutes, p + 1)) {
      size_t b = p;
      while (b > 0 && lo[b - 1] == ' ') --b;
      if (b > 0 && is_digit(lo[b - 1])) return true;
    }
    return false;
  }

  // A recording told minutes long by its duration and its medium side by side: "tagspeech 5min wav oom",
  // "i use a 5min.wav instead", "a 10-minute video", "3 minutes of audio", zh "一首5min的歌曲" (a 5-min
  // song). One recording fed whole: its length is the sequence. The number a whole word (not "v2min"),
  // a minute or more (Whisper's window is 30 s), the medium right after the unit (a space, '-', '.',
  // '_' or 的 between; "of" before audio / video / speech / music): not "5 min per epoch", "after 5
  // minutes the audio ...".
  static bool minutes_long_recording(std::string_view lo) {
    static constexpr std::string_view kMedia[] = {"wav", "wavs", "audio", "audios", "mp3", "flac", "m4a", "mp4", "song",
                                                  "songs", "video", "videos", "clip", "clips", "recording", "recordings",
                                                  "speech", "podcast", "meeting", "lecture", "track", "music"};
    // (Not cut into pieces, a total, a tutorial, a rate or the run's own time: "3 minutes of speech in total,
    // split into 1-second clips", "a 5-minute video tutorial", "after 30 minutes music generation stops".)
    if (contains_any(lo, {"split", "chunk", "segment", "in total", "tutorial", " per ", "after ", "took", "takes"}) ||
        contains_word(lo, "each") || contains_word(lo, "every") || lo.find('?') != std::string_view::npos) {
      return false;
    }
    // "<medium> ... N minutes long", "an audio file of 45 minutes".
    for (std::string_view tail : {" minutes long", " minute long", " mins long", " min long"}) {
      const size_t t = lo.find(tail);
      if (t != std::string_view::npos && t > 0 && is_digit(lo[t - 1]) &&
          std::any_of(std::begin(kMedia), std::end(kMedia), [&](std::string_view m) { return contains_word(lo, m); })) {
        return true;
      }
    }
    for (std::string_view of : {" file of ", " recording of ", " clip of "}) {
      const size_t t = lo.find(of);
      if (t == std::string_view::npos) continue;
      size_t d = t + of.size();
      const size_t digits = d;
      while (d < lo.size() && is_digit(lo[d])) ++d;
      if (d > digits && (lo.compare(d, 4, " min") == 0 || lo.compare(d, 3, "min") == 0) &&
          std::any_of(std::begin(kMedia), std::end(kMedia), [&](std::string_view m) { return contains_word(lo, m); })) {
        return true;
      }
    }
    for (size_t p = 0; p < lo.size(); ++p) {
      if (!is_digit(lo[p]) || (p > 0 && (word_char(lo[p - 1]) || lo[p - 1] == '.'))) continue;
      size_t e = p;
      int v = 0;
      while (e < lo.size() && is_digit(lo[e]) && v < 100000) v = v * 10 + (lo[e++] - '0');
      p = e;
      if (v < 1) continue;
      if (e < lo.size() && (lo[e] == ' ' || lo[e] == '-')) ++e;
      size_t ue = e;
      while (ue < lo.size() && is_alpha(lo[ue])) ++ue;
      const std::string_view unit = lo.substr(e, ue - e);
      if (unit != "min" && unit != "mins" && unit != "minute" && unit != "minutes") continue;
      size_t m = ue;
      if (m < lo.size() && (lo[m] == ' ' || lo[m] == '-' || lo[m] == '.' || lo[m] == '_')) ++m;
      if (lo.compare(m, 3, "\xe7\x9a\x84") == 0) {  // 的
        m += 3;
        if (lo.compare(m, 6, "\xe6\xad\x8c\xe6\x9b\xb2") == 0 || lo.compare(m, 6, "\xe9\x9f\xb3\xe9\xa2\x91") == 0 ||
            lo.compare(m, 6, "\xe8\xa7\x86\xe9\xa2\x91") == 0 || lo.compare(m, 6, "\xe5\xbd\x95\xe9\x9f\xb3") == 0) {
          return true;  // 歌曲 (song), 音频 (audio), 视频 (video), 录音 (recording)
        }
        continue;
      }
      if (lo.compare(m, 3, "of ") == 0) m += 3;
      size_t we = m;
      while (we < lo.size() && (is_alpha(lo[we]) || is_digit(lo[we]))) ++we;  // (mp3, m4a, mp4)
      const std::string_view what = lo.substr(m, we - m);
      if (std::find(std::begin(kMedia), std::end(kMedia), what) != std::end(kMedia)) return true;
    }
    return false;
  }

  // Chinese: the memory told rising as it goes, 在涨 ("显存还是一直在涨", still keeps rising; not 存在涨 "there
  // is a rise", 现在涨到 "now it rose to"), 往上走 / 往上涨 (goes upward), 地涨 (不停地涨, 不断地涨: rises on
  // and on); not denied or asked in its clause (zh_not_told_at()).
  static bool zh_is_rising(std::string_view lo) {
    for (std::string_view x : {"\xe5\x9c\xa8\xe6\xb6\xa8", "\xe5\xbe\x80\xe4\xb8\x8a\xe8\xb5\xb0",
                               "\xe5\xbe\x80\xe4\xb8\x8a\xe6\xb6\xa8", "\xe5\x9c\xb0\xe6\xb6\xa8"}) {
      for (size_t p = lo.find(x); p != std::string_view::npos; p = lo.find(x, p + x.size())) {
        const std::string_view before = lo.substr(p >= 3 ? p - 3 : 0, p >= 3 ? 3 : 0);
        if (x == "\xe5\x9c\xa8\xe6\xb6\xa8" && (before == "\xe5\xad\x98" || before == "\xe7\x8e\xb0")) continue;  // 存, 现
        if (!zh_not_told_at(lo, p)) return true;
      }
    }
    return false;
  }

  // The number written right before position `at` of `lo`, one space or dash between ("350 words",
  // "3-hour", "1,000 words", "1.5 hours"): its value, thousands commas dropped; -1 where there is none or
  // it ends a longer token ("v2 hours", "x1.5 hours").
  static double number_before(std::string_view lo, size_t at) {
    size_t b = at;
    if (b > 0 && (lo[b - 1] == ' ' || lo[b - 1] == '-')) --b;
    size_t f = b;
    while (f > 0 && (is_digit(lo[f - 1]) || lo[f - 1] == ',' || lo[f - 1] == '.')) --f;
    while (f < b && !is_digit(lo[f])) ++f;  // (a mark opening it is none of the number's)
    if (f == b || (f > 0 && word_char(lo[f - 1]))) return -1;
    std::string digits;
    for (size_t i = f; i < b; ++i) {
      if (lo[i] != ',') digits.push_back(lo[i]);
    }
    if (digits.size() > 9 || std::count(digits.begin(), digits.end(), '.') > 1) return -1;
    return std::stod(digits);
  }

  // The largest count written before the word `unit` (a word of its own, or its plural) on `lo`: digits
  // (number_before(): "350 words", "3-hour", "1,000 words", "1.5 hours"), a 'k' ("5k-word") or a '+'
  // ("2000+ words") after them, or "an" / "one" (1: "an hour"); -1 where none.
  static double largest_count_before(std::string_view lo, std::string_view unit) {
    double most = -1;
    for (size_t u = lo.find(unit); u != std::string_view::npos; u = lo.find(unit, u + unit.size())) {
      const size_t after = u + unit.size();
      if (!word_starts_at(lo, u) || (after < lo.size() && is_alpha(lo[after]) && lo[after] != 's')) continue;
      size_t e = u;
      if (e > 0 && (lo[e - 1] == ' ' || lo[e - 1] == '-')) --e;
      if (e > 0 && lo[e - 1] == '+') --e;
      double mult = 1;
      if (e > 1 && lo[e - 1] == 'k' && is_digit(lo[e - 2])) {
        mult = 1000;
        --e;
      }
      for (std::string_view one : {"an", "one"}) {
        if (e >= one.size() && lo.compare(e - one.size(), one.size(), one) == 0 &&
            (e == one.size() || !word_char(lo[e - one.size() - 1]))) {
          most = std::max(most, 1.0);
        }
      }
      most = std::max(most, number_before(lo, e) * mult);
    }
    return most;
  }

  // One recording told hours long ("The time length of my audio file is more than 1 hour", "a 3-hour
  // audio", "an MP3 file I recorded for ~15 hours"): a file, recording, video, clip, podcast, meeting,
  // lecture, song, track, audio, mp3 or wav named, with "N hour(s)" / "an hour" / "one hour" on the line.
  // Fed whole, its activations grow with its length. Not a dataset's total ("100 hours of speech", "in
  // total"), a rate, the run's or the user's own time ("after 5 hours", "took 3 hours", "an hour later", "I
  // spent 5 hours debugging", "per hour", "every hour"), nor a stream or a camera ("24 hours a day").
  //
  // Also "hr(s)" and "h" after digits ("1.5 hrs long", "a 2h recording"), and "hours of" where one file
  // holds them ("a single file with 3 hours of audio").
  static bool hours_long_recording(std::string_view lo) {
    static constexpr std::string_view kOne[] = {"file", "recording", "video", "clip", "podcast", "meeting", "lecture",
                                                "song", "track", "audio", "mp3", "wav"};
    const bool one_file_holds = contains_any(lo, {"single file", "one file", "file with", "recording with", "video with",
                                                  "file containing", "file that has", "file has", "recording containing",
                                                  "hours of duration", "hour of duration"});
    if ((!one_file_holds && contains_any(lo, {"hours of", "hour of", "hrs of", "hr of"})) ||
        // (a total, "a manifest file with 300 hours", "add up to 50 hours"; the run's time or its limit,
        // "trained for 12h", "a 4h time limit")
        contains_any(lo, {"manifest", "add up", "adds up", "altogether", "corpus", "trained for", "ran for", "run for",
                          "running for", "training for", "limit"}) ||
        contains_any(lo, {"in total", " per ", "after ", "took", "takes", "taking", "every ",
                          "split", "chunk", "segment", "dataset", "/hour", "an hour ago", "hours ago", "later", "spent",
                          "spend", "debug", "wait", "stream", "live", "camera", "rtsp", " a day"}) ||
        lo.find('?') != std::string_view::npos ||
        !std::any_of(std::begin(kOne), std::end(kOne), [&](std::string_view m) { return contains_word(lo, m); })) {
      return false;
    }
    if (largest_count_before(lo, "hour") > 0 || largest_count_before(lo, "hr") > 0) return true;
    for (size_t h = lo.find('h', 1); h != std::string_view::npos; h = lo.find('h', h + 1)) {
      size_t e = h + 1;  // ("2h", "2hr", "2hrs")
      if (lo.compare(e, 2, "rs") == 0) {
        e += 2;
      } else if (lo.compare(e, 1, "r") == 0) {
        e += 1;
      }
      if (!is_digit(lo[h - 1])) continue;
      if (!one_file_holds && lo.compare(e, 3, " of") == 0) continue;  // ("24h of meeting audio": a total)
      // (A count of its own, "a 2h recording", "(1.5h)", not a name's part, "wav2vec2-base-960h" (number_before()
      // already refuses a letter before it), nor a dataset's total, "LibriSpeech 960h": one recording of a
      // day at most.)
      size_t f = h;
      while (f > 0 && (is_digit(lo[f - 1]) || lo[f - 1] == '.')) --f;
      if (f > 0 && (lo[f - 1] == '-' || lo[f - 1] == '_')) continue;
      const double hours = number_before(lo, h);
      size_t m = e;  // ("2h30m", "2h30min": the minutes after it)
      while (m < lo.size() && is_digit(lo[m])) ++m;
      // ("2h30m", "2h30min", and "2h30" with the minutes' unit left out: two digits at most, then no word)
      const bool minutes_after = m > e && ((m < lo.size() && lo[m] == 'm') || (m - e <= 2 && (m >= lo.size() || !word_char(lo[m]))));
      if (hours > 0 && hours <= 24 && (e >= lo.size() || !word_char(lo[e]) || minutes_after)) return true;
    }
    return false;
  }

  // A text told by its count of words, 300 or more ("I tried to compute this with a sentence of 350
  // words", "my input is about 5000 words", "a 5k-word document", "2000+ words"): a sentence, text, input,
  // document, paragraph, passage, article, essay, story, prompt or transcript named. Its tokens are the
  // sequence; activations (and a masked scorer's one copy per token) grow with them. Not a corpus's count
  // ("processed 5642208802 words"), a rate ("words/s"), words per item, a cut, a cap or a chunk's size, nor
  // text the model is asked to write.
  static bool words_long_input(std::string_view lo) {
    static constexpr std::string_view kOne[] = {"sentence", "text", "input", "document", "paragraph", "passage", "article",
                                                "essay", "prompt", "transcript", "story", "sentences", "texts", "inputs",
                                                "documents", "articles", "prompts"};
    // ("truncated to 400 words", "chunks of 500 words", "under 300 words", "write a 2000 word essay")
    if (contains_any(lo, {"processed", "words/s", " per ", "each", "vocab", "corpus", "dataset", "in total", "truncat",
                          "chunk", "split", "max", "limit", "at most", "up to", "under ", "less than", "fewer than",
                          "write", "generat", "output"}) ||
        !std::any_of(std::begin(kOne), std::end(kOne), [&](std::string_view m) { return contains_word(lo, m); })) {
      return false;
    }
    return largest_count_before(lo, "word") >= 300;
  }

  // Whether `lo` holds a number of at least `min_s` followed by a unit of seconds ("56 seconds",
  // "30s", "45 sec", "20.5 secs"), the number a whole word ("v2s", "1e30s" are none).
  static bool seconds_at_least(std::string_view lo, double min_s) {
    for (size_t p = 0; p < lo.size(); ++p) {
      if (!is_digit(lo[p]) || (p > 0 && (word_char(lo[p - 1]) || lo[p - 1] == '.'))) continue;
      size_t e = p;
      double v = 0;
      while (e < lo.size() && is_digit(lo[e])) v = v * 10 + (lo[e++] - '0');
      if (e + 1 < lo.size() && lo[e] == '.' && is_digit(lo[e + 1])) {
        ++e;
        while (e < lo.size() && is_digit(lo[e])) ++e;
      }
      size_t u = e;
      if (u < lo.size() && lo[u] == ' ') ++u;
      size_t ue = u;
      while (ue < lo.size() && is_alpha(lo[ue])) ++ue;
      const std::string_view unit = lo.substr(u, ue - u);
      if (ue < lo.size() && (is_digit(lo[ue]) || lo[ue] == '_')) continue;
      if ((unit == "s" || unit == "sec" || unit == "secs" || unit == "second" || unit == "seconds") && v >= min_s) return true;
      if ((unit == "min" || unit == "mins" || unit == "minute" || unit == "minutes") && v * 60 >= min_s) return true;
      // ffmpeg's clock: "00:01:45.32" (hours, minutes, seconds).
      if (e + 5 < lo.size() && lo[e] == ':' && is_digit(lo[e + 1]) && is_digit(lo[e + 2]) && lo[e + 3] == ':' &&
          is_digit(lo[e + 4]) && is_digit(lo[e + 5])) {
        const double clock = v * 3600 + ((lo[e + 1] - '0') * 10 + (lo[e + 2] - '0')) * 60 + (lo[e + 4] - '0') * 10 + (lo[e + 5] - '0');
        if (clock >= min_s) return true;
      }
      p = e;
    }
    return false;
  }

  // One input's size in words: a size word followed by what a model takes in as one sample, with
  // at most two filler words between ("size", "input", "res", "test", "a"): "a smaller picture is
  // fine", "larger input images", "full-size image", "high res frames", "shorter utterances",
  // "1080p video"; or that noun (or "input") compared right after it ("images larger than
  // 512x512x256") or said to be long or large ("the input is excessively long"), not beside a
  // truncation or filter, not a software image ("docker image"). Words alone decide nothing here:
  // "large" or "image" by itself is not read; "4k" is not a size word ("4k sentences" counts them).
  static bool sized_input(std::string_view lo) {
    static const std::array<std::string_view, 24> kSize = {
        "large", "larger", "largest", "big", "bigger", "huge", "long", "longer", "longest", "small", "smaller",
        "short", "shorter", "full", "fullsize", "high", "higher", "uhd", "hd", "720p", "1080p", "1440p", "2160p", "4320p"};
    static const std::array<std::string_view, 27> kInput = {
        "image", "images", "picture", "pictures", "photo", "photos", "frame", "frames", "video", "videos",
        "audio", "audios", "clip", "clips", "utterance", "utterances", "sequence", "sequences", "sentence", "sentences",
        "document", "documents", "prompt", "prompts", "resolution", "scene", "scenes"};
    // Words of the line, lower-case ASCII runs ("full-size" reads as "full", "size").
    std::array<std::string_view, 64> w{};
    size_t n = 0;
    for (size_t i = 0; i < lo.size() && n < w.size();) {
      if (!(is_alpha(lo[i]) || is_digit(lo[i]))) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < lo.size() && (is_alpha(lo[j]) || is_digit(lo[j]))) ++j;
      w[n++] = lo.substr(i, j - i);
      i = j;
    }
    auto in = [](std::string_view x, const auto& set) {
      for (std::string_view s : set) {
        if (x == s) return true;
      }
      return false;
    };
    static const std::array<std::string_view, 2> kAlsoInput = {"input", "inputs"};
    // Inputs cut or dropped ("sentences longer than 128 tokens are truncated") are no long input.
    if (lo.find("truncat") != std::string_view::npos || lo.find("filter") != std::string_view::npos) return false;
    static const std::array<std::string_view, 8> kCopula = {"is", "are", "was", "were", "gets", "get", "becomes", "become"};
    static const std::array<std::string_view, 9> kVery = {"too", "very", "excessively", "extremely", "quite", "really",
                                                          "so", "rather", "overly"};
    for (size_t i = 0; i < n; ++i) {
      // Not a software image ("the docker image is very large").
      const bool software = i > 0 && (w[i - 1] == "docker" || w[i - 1] == "container" || w[i - 1] == "base" ||
                                      w[i - 1] == "disk" || w[i - 1] == "iso" || w[i - 1] == "os");
      // The noun first, then a comparison: "images larger than 512x512x256", "utterances longer than 30 s".
      if ((in(w[i], kInput) || in(w[i], kAlsoInput)) && !software && i + 2 < n &&
          (w[i + 1] == "larger" || w[i + 1] == "bigger" || w[i + 1] == "longer") && w[i + 2] == "than") {
        return true;
      }
      // The noun said to be long or large: "if the input is excessively long", "the images are very large";
      // not "long enough", "big-endian".
      if ((in(w[i], kInput) || in(w[i], kAlsoInput)) && !software && i + 2 < n && in(w[i + 1], kCopula)) {
        size_t k = i + 2;
        if (k + 1 < n && in(w[k], kVery)) ++k;
        const bool qualified = k + 1 < n && (w[k + 1] == "enough" || w[k + 1] == "endian");
        if (!qualified && (w[k] == "long" || w[k] == "large" || w[k] == "big" || w[k] == "huge")) return true;
      }
      if (!in(w[i], kSize)) continue;
      for (size_t k = i + 1; k < std::min(n, i + 4); ++k) {  // the noun, after at most two fillers
        if (in(w[k], kInput)) {
          if (k + 1 < n && w[k + 1] == "rate") break;  // "high frame rate" is no size
          // Nor the GPU's video memory or card ("a GPU with larger video memory", "a bigger video
          // card"), nor a collection, a model or the vectors of such inputs ("a large audio dataset", "a big
          // image model", "large document vectors").
          if (k + 1 < n && ((w[k] == "video" && (w[k + 1] == "memory" || w[k + 1] == "ram" || w[k + 1] == "card" ||
                                                  w[k + 1] == "cards")) ||
                            (w[k] != "resolution" &&
                             in(w[k + 1], std::array<std::string_view, 11>{"dataset", "datasets", "corpus", "model", "models",
                                                                           "vector", "vectors", "collection", "collections",
                                                                           "index", "store"})))) {
            break;
          }
          return true;
        }
        const bool filler = w[k] == "size" || w[k] == "sized" || w[k] == "input" || w[k] == "inputs" || w[k] == "res" ||
                            w[k] == "test" || w[k] == "a";
        if (!filler) break;
      }
    }
    return false;
  }

  std::string first_of(std::string_view lo, Word kind) {
    std::string found;
    for_each_token(lo, [&](size_t i, size_t j) {
      auto it = words().find(lo.substr(i, j - i));
      if (it != words().end() && it->second == kind) found = std::string(lo.substr(i, j - i));
      return found.empty();
    });
    return found;
  }

  // Every evaluation word of the line (words()'s kWEval) comes right after a word that says it does
  // not happen ("we never evaluate", "without evaluation", "no validation", "didn't run eval", "skip
  // the test"), right before it or before an article or "run": evaluation named as not run, no
  // evaluation word. False when the line has none, or any one not so denied.
  bool eval_words_denied(std::string_view lo) const {
    std::array<std::string_view, 2> before{};  // the two words before the current one
    bool any = false, affirmed = false;
    // "If I skip the evaluation, it runs fine": a fix told, pointing at evaluation.
    const bool conditional = lo.find("if ") != std::string_view::npos || lo.find("when ") != std::string_view::npos;
    for_each_token(lo, [&](size_t i, size_t j) {
      const std::string_view w = lo.substr(i, j - i);
      const auto it = words().find(w);
      if (it != words().end() && it->second == kWEval) {
        // The negator right before, or before one of a few words ("didn't run eval", "skip the
        // test"); not "No idea, evaluation ...".
        auto negator = [&](std::string_view b) {
          // "t": the end of "don't" / "didn't" / "doesn't", split at the apostrophe.
          for (std::string_view neg : {"never", "no", "without", "not", "t", "dont"}) {
            if (b == neg) return true;
          }
          for (std::string_view neg : {"skip", "skipping", "disable", "disabled"}) {
            if (b == neg && !conditional) return true;
          }
          return false;
        };
        bool filler = false;
        for (std::string_view f : {"the", "any", "a", "an", "run", "do", "my", "our", "its"}) filler = filler || before[1] == f;
        const bool denied = negator(before[1]) || (filler && negator(before[0]));
        if (!denied) {
          affirmed = true;
          return false;
        }
        any = true;
      }
      before = {before[1], w};
      return true;
    });
    return any && !affirmed;
  }

  // A setting named at lo[i, j) turned off: its name says so ("no_eval", "skip_eval", "disable_eval")
  // or its value does ("--do_eval False", "do_eval=false", "eval: 0", "run_eval = None").
  static bool setting_turned_off(std::string_view lo, size_t i, size_t j) {
    const std::string_view name = lo.substr(i, j - i);
    for (std::string_view off : {"no_", "skip_", "disable_", "without_"}) {
      if (name.rfind(off, 0) == 0) return true;
    }
    size_t k = j;
    while (k < lo.size() && (lo[k] == ' ' || lo[k] == '=' || lo[k] == ':' || lo[k] == '"' || lo[k] == '\'')) ++k;
    for (std::string_view v : {"false", "none", "0"}) {
      if (lo.compare(k, v.size(), v) == 0 && (k + v.size() >= lo.size() || !word_char(lo[k + v.size()]))) return true;
    }
    return false;
  }

  // An identifier whose camelCase / snake_case parts name evaluation: "epochVal", "run_test",
  // "validateModel" (the plain words are in words()). `raw` is the original line; [i, j) a token.
  static bool eval_identifier(std::string_view raw, size_t i, size_t j) {
    if (j > raw.size() || j - i < 5 || j - i > 40) return false;
    const std::string_view tok = raw.substr(i, j - i);
    bool camel = false;
    for (size_t k = 1; k < tok.size(); ++k) camel = camel || (tok[k] >= 'A' && tok[k] <= 'Z' && tok[k - 1] >= 'a' && tok[k - 1] <= 'z');
    if (!camel && tok.find('_') == std::string_view::npos) return false;
    // The parts as views of the raw token (at most 16; a longer name's rest is not read), a leading
    // '_' dropped; compared case-blind.
    std::array<std::string_view, 16> parts;
    size_t count = 0;
    size_t a = 0;
    for (size_t k = 1; k <= tok.size() && count < parts.size(); ++k) {
      const bool cut = k == tok.size() || tok[k] == '_' || (tok[k] >= 'A' && tok[k] <= 'Z' && tok[k - 1] >= 'a' && tok[k - 1] <= 'z');
      if (!cut) continue;
      std::string_view part = tok.substr(a, k - a);
      if (!part.empty() && part[0] == '_') part.remove_prefix(1);
      parts[count++] = part;
      a = k;
    }
    auto is = [](std::string_view part, std::string_view word) {
      return part.size() == word.size() && std::equal(part.begin(), part.end(), word.begin(), [](char x, char y) {
               return lower_char(x) == y;
             });
    };
    for (size_t k = 0; k < count; ++k) {
      // "valid" as the adjective of the data it qualifies ("valid_labels", "valid_mask", "validLen",
      // "is_valid", "num_valid_tokens"): the entries that count, not a validation set or step.
      if (is(parts[k], "valid")) {
        const std::string_view next = k + 1 < count ? parts[k + 1] : std::string_view();
        const std::string_view prev = k > 0 ? parts[k - 1] : std::string_view();
        if (is(prev, "is") || is(prev, "non") || is(prev, "not") || is(prev, "num") || is(prev, "n")) continue;
        bool qualifies = false;
        for (std::string_view d : {"label", "labels", "mask", "masks", "len", "lens", "length", "lengths", "token", "tokens", "id",
                                   "ids", "idx", "index", "indices", "pixel", "pixels", "box", "boxes", "point", "points", "num",
                                   "count", "ratio", "region", "regions", "frame", "frames", "obj", "objs", "objects", "area",
                                   "value", "values", "entries", "pos", "positions"}) {
          qualifies = qualifies || is(next, d);
        }
        if (qualifies) continue;
      }
      for (std::string_view e : {"val", "valid", "validate", "validation", "eval", "evaluate", "evaluation", "test", "infer",
                                 "inference", "predict"}) {
        if (is(parts[k], e)) return true;
      }
    }
    return false;
  }

  // The spatial size of a tensor made at batch 1 in code: torch.randn / rand / zeros / ones / empty with
  // literal sizes (1, C, H, W) or (1, C, D, H, W), every spatial size 64 .. 100000 and together at least
  // a megapixel (1024 x 1024 = 1048576 elements a channel): "torch.randn(1, 1, 128, 128, 128)" is a
  // 128x128x128 volume (2097152 voxels); a 512x512 example is an ordinary input. Returns "HxW" /
  // "DxHxW", or "" (another shape, a batch above 1, a name for a size).
  static std::string example_input_size(std::string_view lo) {
    // The tensor named an input, or passed straight to an export or a trace ("dummy_input = ...", "x =
    // ...", "img = ...", "torch.onnx.export(model, torch.randn(...), ...)"); not a cache's or a weight's
    // shape ("kv = torch.empty(1, 32, 8192, 128)"), not told unused ("I did not use torch.randn(...)").
    if (contains_any(lo, {"not ", "n't ", "instead of", "never "})) return "";
    const bool input_named = contains_any(lo, {"input", "dummy", "example", "img", "image", "sample", "export(", "trace("}) ||
                             (lo.find('=') != std::string_view::npos && trim_view(lo.substr(0, lo.find('='))) == "x");
    if (!input_named) return "";
    for (std::string_view maker : {"randn(", "rand(", "zeros(", "ones(", "empty("}) {
      for (size_t p = lo.find(maker); p != std::string_view::npos; p = lo.find(maker, p + 1)) {
        if (p > 0 && (is_alpha(lo[p - 1]) || lo[p - 1] == '_')) continue;  // "my_rand(", "torch.zeros_like(" is not made so
        size_t k = p + maker.size();
        if (k < lo.size() && (lo[k] == '(' || lo[k] == '[')) ++k;  // torch.randn((1, 3, 512, 512))
        std::vector<int64_t> dims;
        while (dims.size() < 6) {
          while (k < lo.size() && lo[k] == ' ') ++k;
          size_t end = k;
          const std::optional<int64_t> v = integer_at(lo, k, &end);
          if (!v || (end < lo.size() && (is_alpha(lo[end]) || lo[end] == '.' || lo[end] == '_'))) break;
          dims.push_back(*v);
          k = end;
          while (k < lo.size() && lo[k] == ' ') ++k;
          if (k >= lo.size() || lo[k] != ',') break;
          ++k;
        }
        if (dims.size() < 4 || dims.size() > 5 || dims[0] != 1 || dims[1] < 1 || dims[1] > 64) continue;
        int64_t elements = 1;
        bool large = true;
        std::string size;
        for (size_t d = 2; d < dims.size(); ++d) {
          large = large && dims[d] >= 64 && dims[d] <= 100000;
          if (!large) break;
          elements *= dims[d];
          size += (d > 2 ? "x" : "") + std::to_string(dims[d]);
        }
        if (large && elements >= 1024 * 1024) return size;
      }
    }
    return "";
  }

  // A resolution or a protein's length stated as numbers, weighed for activations_seqlen: "WxH"
  // ("3296x2400", "1024 x 1024"; "2160*3840" where the log speaks of images; also the last two of a
  // chain, "3x320x320", and before the channels, "512x512x3") with both sides >= 256;
  // a video format's height ("1080p", 720p to 4320p); "(W, H)" with two elements >= 256, not a
  // call's arguments ("torch.rand(4096, 9216)"), only where the log speaks of images; "2510 aa" /
  // "650 residues" (>= 300: structure models grow quadratically or worse in it). 0.3 from a quarter
  // megapixel (512x512) up, 0.15 below. One pass over the line's digits.
  struct InputDims {
    double weight = 0.0;
    std::string what;
  };
  static InputDims input_dims(std::string_view lo, bool image_log) {
    InputDims out;
    auto number = [&](size_t p, size_t& end) -> int64_t {
      end = p;
      while (end < lo.size() && is_digit(lo[end])) ++end;
      if (end - p > 7) return -1;
      int64_t v = 0;
      for (size_t k = p; k < end; ++k) v = v * 10 + (lo[k] - '0');
      return v;
    };
    auto skip_spaces = [&](size_t i) {
      while (i < lo.size() && lo[i] == ' ') ++i;
      return i;
    };
    // (A chain of sizes is read for its image only where the log or the line speaks of images or
    // inputs: "the conv kernel is 3x3x512x512" is a weight's shape.)
    // (Nor where the line names a weight, a kernel or a filter: "the input to the conv layer has weight
    // 3x3x512x512".)
    const bool image_line = (image_log || contains_any(lo, {"image", "img", "picture", "photo", "frame", "input", "resolution"})) &&
                            !contains_any(lo, {"weight", "kernel", "filter"});
    for (size_t p = 0; p < lo.size(); ++p) {
      // (A size after a channel or batch count's 'x' is read on: "3x320x320" (C x H x W), "64x3x320x320".)
      const bool chained = image_line && p >= 2 && lo[p - 1] == 'x' && is_digit(lo[p - 2]);
      if (!is_digit(lo[p]) || (p > 0 && !chained && (is_digit(lo[p - 1]) || lo[p - 1] == '.' || is_alpha(lo[p - 1])))) continue;
      size_t end = p;
      const int64_t a = number(p, end);
      if (a < 0) {
        p = end;
        continue;
      }
      // "2510 aa", "650 residues"
      const std::string_view unit = lo.substr(end, std::min<size_t>(10, lo.size() - end));
      if (a >= 300 && a <= 1000000 && (unit.rfind(" aa", 0) == 0 || unit.rfind("aa ", 0) == 0 || unit.rfind(" residues", 0) == 0 ||
                                       unit.rfind(" amino", 0) == 0) &&
          (unit.size() <= 3 || unit.rfind(" aa", 0) != 0 || !is_alpha(unit[3]))) {
        out.weight = 0.3;
        out.what = std::to_string(a) + " residues";
        return out;
      }
      // A video format's height where the line names the input it is: "a 1080p picture", "720p
      // frames", "1080p60 video" (not a monitor's, a preview's or a download format's).
      // (Also a video file's own words: "a 4K 30fps mov file", "1080p mp4"; and, in a log that speaks
      // of images or video, the height alone: "It's OK in 1080p".)
      auto video_input_named = [&] {
        return contains_any(lo, {"image", "picture", "pic", "photo", "frame", "video", "input", "fps", "footage", ".mov",
                                 " mov ", ".mp4", " mp4", "h264", "h.264", "h265", "hevc"}) &&
               !contains_any(lo, {"monitor", "display", "screen", "preview"});
      };
      // (Not inside a path to a model's weights, "ckpts/hunyuan-video-t2v-720p/transformers/model.pt": a
      // model's folder; "1080p/30fps" and "data/clips_1080p/" are the input's.)
      auto in_other_path = [&] {
        size_t from = p, to = end;
        while (from > 0 && lo[from - 1] != ' ' && lo[from - 1] != '"' && lo[from - 1] != '\'' && lo[from - 1] != '`') --from;
        while (to < lo.size() && lo[to] != ' ' && lo[to] != '"' && lo[to] != '\'' && lo[to] != '`') ++to;
        const std::string_view token = lo.substr(from, to - from);
        return token.find('/') != std::string_view::npos &&
               contains_any(token, {"ckpt", "checkpoint", "model", "weight", "transformer", ".pt", ".pth", ".bin", ".safetensors",
                                    ".gguf", ".onnx"}) &&
               !contains_any(token, {".mp4", ".mov", ".avi", ".mkv", ".webm", ".png", ".jpg", ".jpeg"});
      };
      if ((a == 720 || a == 1080 || a == 1440 || a == 2160 || a == 4320) && end < lo.size() && lo[end] == 'p' &&
          (end + 1 >= lo.size() || !is_alpha(lo[end + 1])) && !in_other_path() &&
          (video_input_named() || (image_log && !contains_any(lo, {"monitor", "display", "screen", "preview"})))) {
        out.weight = 0.3;
        out.what = std::to_string(a) + "p";
        return out;
      }
      // "4K" / "8K" (UHD video and images: 3840x2160, 7680x4320) where the line names the video file it
      // is ("6sec 4K 30fps mov file") or the noun follows it ("4K images", "a 4k video"); not a count
      // ("4k sentences", "after 8k iterations", "8k context"), nor an image generator's prompt
      // ("realistic detailed photo, 4k", "masterpiece, 8k uhd").
      auto uhd_input = [&] {
        const std::string_view next = lo.substr(end + 1, 12);
        const bool noun_next = contains_any(next, {" image", " picture", " photo", " video", " frame", " input",
                                                   " resolution", " footage", " file", " mov"});
        const bool video_file = contains_any(lo, {"fps", "footage", ".mov", " mov ", ".mp4", " mp4", "h264", "h.264", "h265",
                                                  "hevc"});
        return (noun_next || video_file) &&
               !contains_any(lo, {"prompt", "detailed", "realistic", "masterpiece", "quality", "uhd", "token", "context",
                                  "iteration", "step", "sample", "sentence", "row"});
      };
      if ((a == 4 || a == 8) && end < lo.size() && lo[end] == 'k' && (end + 1 >= lo.size() || !is_alpha(lo[end + 1])) &&
          uhd_input()) {
        out.weight = 0.3;
        out.what = std::to_string(a) + "K";
        return out;
      }
      // "WxH" / "W x H" / "W×H"
      size_t q = skip_spaces(end);
      size_t after_x = std::string_view::npos;
      // "2160*3840 images": a star only where the line itself names images (a code line's
      // "/ (1024*1024)" is a unit conversion).
      // (An image file's format names the size only right before it: "a BMP(3968*2976)", not
      // "loss.png; the embedding is 50257*768".)
      auto star_ok = [&] {
        const std::string_view just_before = lo.substr(p >= 10 ? p - 10 : 0, p >= 10 ? 10 : p);
        return image_log && (lo.find("image") != std::string_view::npos || lo.find("picture") != std::string_view::npos ||
                             lo.find("photo") != std::string_view::npos || lo.find("video") != std::string_view::npos ||
                             image_format_named(just_before));
      };
      if (q < lo.size() && (lo[q] == 'x' || (lo[q] == '*' && star_ok()))) after_x = q + 1;
      // (The star escaped as Markdown writes it, "1920\\*1080".)
      else if (q + 1 < lo.size() && lo[q] == '\\' && lo[q + 1] == '*' && star_ok()) after_x = q + 2;
      else if (lo.substr(q, 2) == "\xc3\x97") after_x = q + 2;  // U+00D7
      if (after_x != std::string_view::npos) {
        const size_t b0 = skip_spaces(after_x);
        if (b0 < lo.size() && is_digit(lo[b0])) {
          size_t bend = b0;
          const int64_t b = number(b0, bend);
          // "1920x1080p video": a video format's suffix, not a word glued on.
          const bool p_suffix = bend < lo.size() && lo[bend] == 'p' && (bend + 1 >= lo.size() || !is_alpha(lo[bend + 1]));
          // "512x512x3": H x W and the channels (1 to 4) last.
          const bool channels_last = image_line && bend + 1 < lo.size() && lo[bend] == 'x' && lo[bend + 1] >= '1' && lo[bend + 1] <= '4' &&
                                     (bend + 2 >= lo.size() || !(is_alpha(lo[bend + 2]) || is_digit(lo[bend + 2])));
          const bool ends = p_suffix || channels_last || bend >= lo.size() ||
                            !(is_alpha(lo[bend]) || is_digit(lo[bend]) || lo[bend] == 'x');
          // A table's rows x columns ("AnnData object with n_obs x n_vars = 38225 x 6829", "50000 rows
          // x 2000 genes") is data, not one input's resolution.
          const bool table = contains_any(lo, {"n_obs", "n_vars", "dataframe", "anndata"}) || contains_word(lo, "rows") ||
                             contains_word(lo, "columns") || contains_word(lo, "genes");
          if (a >= 256 && b >= 256 && a <= 100000 && b <= 100000 && ends && !table) {
            out.weight = a * b >= 512 * 512 ? 0.3 : 0.15;
            out.what = std::to_string(a) + "x" + std::to_string(b);
            return out;
          }
        }
      }
      // "(W, H)" where the log speaks of images.
      if (image_log && p > 0) {
        size_t o = p;
        while (o > 0 && lo[o - 1] == ' ') --o;
        const bool open = o > 0 && (lo[o - 1] == '(' || lo[o - 1] == '[');
        const size_t before = open ? o - 1 : 0;  // a call's "(" follows its name: "rand(4096, 9216)"
        const bool call = before > 0 && (word_char(lo[before - 1]) || lo[before - 1] == '(' || lo[before - 1] == '[');
        const size_t comma = skip_spaces(end);
        if (open && !call && comma < lo.size() && lo[comma] == ',') {
          const size_t b0 = skip_spaces(comma + 1);
          if (b0 < lo.size() && is_digit(lo[b0])) {
            size_t bend = b0;
            const int64_t b = number(b0, bend);
            const size_t close = skip_spaces(bend);
            if (b >= 0 && close < lo.size() && (lo[close] == ')' || lo[close] == ']') && a >= 256 && b >= 256 &&
                a <= 100000 && b <= 100000) {
              out.weight = a * b >= 512 * 512 ? 0.3 : 0.15;
              out.what = std::to_string(a) + "x" + std::to_string(b);
              return out;
            }
          }
        }
      }
      // "(B, N, N)" in the user's words, its last two sizes equal and >= 1000 ("the dist_matrix could be
      // (4, 10000, 10000) if the npoints set to 10000"): a pairwise N x N term (distances, attention
      // scores), which grows with the square of the input's points or tokens. Not a call's arguments.
      if (p > 0 && a >= 1 && a <= 100000) {
        size_t o = p;
        while (o > 0 && lo[o - 1] == ' ') --o;
        const bool open = o > 0 && (lo[o - 1] == '(' || lo[o - 1] == '[');
        const size_t before = open ? o - 1 : 0;
        const bool call = before > 0 && (word_char(lo[before - 1]) || lo[before - 1] == '(' || lo[before - 1] == '[');
        size_t k = skip_spaces(end);
        int64_t dims[2] = {-1, -1};
        for (int64_t& d : dims) {
          if (k >= lo.size() || lo[k] != ',') break;
          k = skip_spaces(k + 1);
          if (k >= lo.size() || !is_digit(lo[k])) break;
          size_t dend = k;
          d = number(k, dend);
          k = skip_spaces(dend);
        }
        // (Not a parameter's shape told: "the (50000, 50000) fp32 weight of a Linear layer".)
        if (open && !call && dims[0] >= 1000 && dims[0] == dims[1] && dims[0] <= 10000000 && k < lo.size() &&
            (lo[k] == ')' || lo[k] == ']') &&
            !contains_any(lo, {"weight", "param", "linear", "embedding", "nn."})) {
          out.weight = 0.3;
          out.what = fmt::format("({}, {}, {}): an {} x {} pairwise term", a, dims[0], dims[1], dims[0], dims[1]);
          return out;
        }
      }
      p = end;
    }
    return out;
  }

  LogEvidence& ev_;
  bool image_seen_ = false;
  int64_t line_process_ = -1;  // the process this line's launcher prefix names; -1: none
  int64_t traceback_line_ = 0;  // the last traceback header or frame
  std::pair<int64_t, int64_t> height_{0, 0}, width_{0, 0};  // (line, value) of the last height / width set
  bool dims_told_ = false;
  int64_t no_grad_fix_line_ = 0;  // the first prose line telling torch.no_grad as the fix or as missing
  std::string_view eval_ident_;  // the line's first identifier naming evaluation ("epochVal"); views the raw line
  std::string lo_;
  bool under_frame_ = false;
  bool ipython_open_ = false;   // an IPython frame's numbered source lines may follow (line())
  bool library_frame_ = false;  // the last frame is in PyTorch's torch/nn (its code line too)
  std::array<int64_t, 16> last_weak_{};
  bool attribution_told_ = false;  // attribution_method() read one already
  int64_t summary_header_line_ = 0;   // the last memory_summary() header's line ("... memory summary, device ID N")
  int64_t summary_header_device_ = -1;  // ... and its N (memory_summary_row())
  std::array<int64_t, kCauseCount> last_raised_{};   // raised_setting_told()'s last fact per cause (once_per_window)
  int64_t gpu_chosen_line_ = 0;  // a line that chose a GPU other than the first (nonzero_gpu_chosen())
  std::array<int64_t, kCauseCount> last_account_{};
  int64_t eval_mode_code_line_ = 0;  // the first code line putting a model in eval mode (".eval()") or loading one
  // The lines after a for-loop's header read as its body (an assignment bound in it, an append of that name).
  static constexpr int64_t kLoopBodyLines = 10;
  int64_t loop_code_line_ = 0;       // the last code line opening a for-loop ("for i in range(10):")
  std::string loop_bound_;           // that loop body's last name bound to a call's result (line())
  std::string model_name_;           // the model's name on eval_mode_code_line_ ("model"), empty where it does not read
  int64_t pretrained_comment_line_ = 0;  // a "# ... pretrained ... model" comment line, 0 where none
  int64_t no_grad_seen_line_ = 0;    // the first line naming no_grad / inference_mode
  // How many lines after a sentence pointing at the fix (fix_pointer_line_) its code may come.
  static constexpr int64_t kFixPointerLines = 8;
  int64_t fix_pointer_line_ = 0;  // the last prose line pointing at the fix shown as code below (fix_shown_as_code())  // stated_account()'s last fact per cause (once_per_window)
  std::array<int64_t, kCauseCount> last_ram_{};      // host_ram_runs_out()'s
  std::array<int64_t, kCauseCount> last_killed_{};   // the process killed, told
  std::string_view line_lo_;  // the lowercased line statement() reads (for code_line() in add())
  CharPairs pairs_;           // its character pairs
  bool ascii_ = true;         // the line line() reads holds ASCII only
  std::pair<int64_t, int64_t> last_free_at_start_{0, 0}, last_total_at_start_{0, 0};
};

}  // namespace

std::shared_ptr<const LogEvidence> read_log_evidence(std::string_view log_text) {
  auto ev = std::make_shared<LogEvidence>();
  Reader reader(*ev);
  for_each_line_view(log_text, [&](const LineView& l) { reader.line(l.raw, l.number); });
  return ev;
}

std::optional<GrowthFit> fit_growth(const std::vector<std::pair<int64_t, int64_t>>& pts) {
  if (pts.size() < 3) return std::nullopt;
  const double n = static_cast<double>(pts.size());
  double sx = 0, sy = 0;
  for (const auto& [x, y] : pts) {
    sx += static_cast<double>(x);
    sy += static_cast<double>(y);
  }
  const double mx = sx / n, my = sy / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (const auto& [x, y] : pts) {
    const double dx = static_cast<double>(x) - mx, dy = static_cast<double>(y) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx <= 0) return std::nullopt;
  GrowthFit fit;
  fit.slope_bytes_per_step = sxy / sxx;
  fit.r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 0.0;
  fit.points = static_cast<int64_t>(pts.size());
  fit.first_bytes = pts.front().second;
  fit.last_bytes = pts.back().second;
  return fit;
}

bool is_leak(const GrowthFit& fit) {
  const double rise = static_cast<double>(fit.last_bytes) - static_cast<double>(fit.first_bytes);
  return fit.points >= 4 && fit.r2 >= 0.9 && fit.slope_bytes_per_step > 0 && rise >= static_cast<double>(kMiB) &&
         rise >= 0.02 * static_cast<double>(std::max<int64_t>(fit.first_bytes, 1));
}

namespace {

template <typename T>
std::optional<T> last_before(const std::vector<std::pair<int64_t, T>>& v, int64_t line, int64_t until) {
  // The last value logged before `line`, else the first one up to `until`.
  auto it = std::upper_bound(v.begin(), v.end(), line, [](int64_t l, const std::pair<int64_t, T>& p) { return l < p.first; });
  if (it != v.begin()) return std::prev(it)->second;
  if (it != v.end() && it->first <= until) return it->second;
  return std::nullopt;
}

}  // namespace

LogContext context_at(const LogEvidence& ev, int64_t oom_line, int64_t prev_oom_line, int64_t next_oom_line) {
  LogContext c;
  const int64_t from = std::max<int64_t>(prev_oom_line + 1, oom_line - kLinesBefore);
  const int64_t to = next_oom_line > 0 ? std::min<int64_t>(next_oom_line - 1, oom_line + kLinesAfter) : oom_line + kLinesAfter;
  auto lo = std::lower_bound(ev.facts.begin(), ev.facts.end(), from, [](const Fact& f, int64_t l) { return f.line < l; });
  auto hi = std::upper_bound(ev.facts.begin(), ev.facts.end(), to, [](int64_t l, const Fact& f) { return l < f.line; });
  if (hi < lo) hi = lo;  // an empty window (to < from, e.g. the next report on the same line)
  // An accelerator named anywhere in the log: the word table's reading (GPU, CUDA, VRAM ...) or the wider
  // one (device_named(): a card's number, a brand, a count glued to a model; its "not read" -1 aside).
  const bool accelerator_named = ev.accelerator_line > 0 || ev.device_named_line > 0;
  // An LLM named and nothing trains it, quantizes, prunes, edits or unlearns it (unless generation is named).
  // An LLM named that nothing in the log trains or quantizes: inference (below), or its export.
  const bool llm_untrained = ev.llm_line && !ev.training_line && !ev.calibration_line;
  const bool llm_inference =
      llm_untrained && (!ev.model_altered_line || ev.generate_call_line > 0 || ev.gen_word_line > 0);

  // The traceback that belongs to this report: the last "Traceback" start before it (within
  // kTracebackLines), or frames right before it when the header was not pasted.
  // Ranks printed interleaved: the report's own process (its line's launcher prefix) reads only its
  // own traceback lines and those with no prefix.
  int64_t oom_process = -1;
  {
    auto p = std::upper_bound(ev.line_process.begin(), ev.line_process.end(), oom_line,
                              [](int64_t l, const LogEvidence::ProcessRun& r) { return l < r.first; });
    if (p != ev.line_process.begin() && std::prev(p)->last >= oom_line) oom_process = std::prev(p)->process;
  }
  auto other_process = [&](const Fact& f) { return oom_process >= 0 && f.process >= 0 && f.process != oom_process; };
  int64_t tb_start = 0;
  for (auto it = lo; it != hi && it->line <= oom_line; ++it) {
    if (it->kind == FactKind::kTracebackStart && oom_line - it->line <= kTracebackLines && !other_process(*it)) tb_start = it->line;
  }
  std::vector<std::pair<int64_t, int64_t>> step_mem;
  std::set<int64_t> steps;
  bool eval_frame = false, load_frame = false, optim_frame = false, gen_frame = false, dl_frame = false,
       attn_frame = false, back_frame = false, fwd_frame = false, loss_frame = false, no_grad_frame = false, no_autograd_frame = false,
       save_frame = false;
  bool load_is_initializer = false;  // the load frame is a TensorFlow variable's initializer ('I')
  int64_t save_line = 0;
  int64_t fwd_line = 0, loss_line = 0;  // the innermost forward / loss frame (a traceback prints it last)
  int64_t inner_fwd_line = 0;           // the innermost forward frame, PyTorch's own nn modules ('F') included
  int back_frames = 0;                  // how many traceback lines are the backward's
  std::string save_what;
  int64_t eval_line = 0, load_line = 0, optim_line = 0, gen_line = 0, dl_line = 0, attn_line = 0, back_line = 0;
  std::string eval_what, load_what, optim_what, gen_what, dl_what, attn_what, back_what;
  bool inference_stated = false, model_eval_last = false, shards_last = false;
  int64_t shards_line = 0, model_eval_line = 0;
  std::vector<Signal> statements;
  for (auto it = lo; it != hi; ++it) {
    const Fact& f = *it;
    switch (f.kind) {
      case FactKind::kFrame: {
        if (other_process(f)) break;
        // TensorFlow prints the op that failed ("[[{{node .../Initializer/zeros}}]]") right under its
        // message, after the Python traceback.
        const bool node_below = f.phase == 'I' && f.line > oom_line && f.line - oom_line <= 3;
        const bool in_tb = (tb_start > 0 && f.line >= tb_start && f.line <= oom_line) ||
                           (tb_start == 0 && f.line <= oom_line && oom_line - f.line <= 60) ||
                           (f.line > oom_line && f.line - oom_line <= 60 && tb_start == 0) || node_below;
        if (!in_tb) break;
        auto set = [&](bool& flag, int64_t& line, std::string& what) {
          flag = true;
          line = f.line;
          what = f.what;
        };
        switch (f.phase) {
          case 'o': set(optim_frame, optim_line, optim_what); break;
          case 'l': set(load_frame, load_line, load_what); load_is_initializer = false; break;
          case 'I': set(load_frame, load_line, load_what); load_is_initializer = true; break;
          case 'g': set(gen_frame, gen_line, gen_what); break;
          case 'e': set(eval_frame, eval_line, eval_what); break;
          case 'd': set(dl_frame, dl_line, dl_what); break;
          case 'a': set(attn_frame, attn_line, attn_what); break;
          case 'b':
            // A frame read as evaluation by its file's or function's name ("mini_Temp_Test.py", line 106,
            // in main) whose own code line takes a loss backward ("evaluation_error.backward()"): a
            // training step, not evaluation.
            if (eval_frame && eval_line == f.line - 1) eval_frame = false;
            set(back_frame, back_line, back_what);
            ++back_frames;
            break;
          case 'f': fwd_frame = true; fwd_line = f.line; inner_fwd_line = f.line; break;
          case 'F': fwd_frame = true; inner_fwd_line = f.line; break;
          case 'L': loss_frame = true; loss_line = f.line; break;
          case 'n': no_grad_frame = true; break;
          case 'v': no_autograd_frame = true; break;
          case 's': save_frame = true; save_line = f.line; save_what = f.what; break;
          default: break;
        }
        break;
      }
      case FactKind::kStatement:
        if (f.phase == 'i') inference_stated = true;
        if (f.phase == 'n') c.no_grad_seen = true;
        if (f.phase == 'k' && f.line <= oom_line + 30) c.tensors_kept_line = f.line;
        if (f.phase == 'e' && f.line <= oom_line && oom_line - f.line <= 8) {
          model_eval_last = true;
          model_eval_line = f.line;
        }
        if (f.phase == 'l' && f.line <= oom_line && oom_line - f.line <= 30) {
          shards_last = true;
          shards_line = f.line;
        }
        if (f.weight != 0.0) statements.push_back({f.cause, f.weight, f.line, f.what, f.prose});
        break;
      default:
        break;
    }
  }
  // Memory figures over steps, in the same window, before the report.
  for (auto it = std::lower_bound(ev.step_mem.begin(), ev.step_mem.end(), from,
                                  [](const LogEvidence::StepMem& s, int64_t l) { return s.line < l; });
       it != ev.step_mem.end() && it->line <= to && it->line < oom_line; ++it) {
    steps.insert(it->step);
    step_mem.emplace_back(it->step, it->bytes);
  }
  c.steps_seen = static_cast<int64_t>(steps.size());
  std::sort(step_mem.begin(), step_mem.end());
  std::vector<std::pair<int64_t, int64_t>> per_step;
  for (const auto& p : step_mem) {
    if (!per_step.empty() && per_step.back().first == p.first) per_step.back().second = std::max(per_step.back().second, p.second);
    else per_step.push_back(p);
  }
  if (auto fit = fit_growth(per_step); fit && is_leak(*fit)) {
    c.growth_per_step_bytes = fit->slope_bytes_per_step;
    c.signals.push_back({OomCause::kLeakAcrossSteps, 0.55, step_mem.empty() ? 0 : oom_line,
                         fmt::format("memory in the log rises by {} per step over {} steps",
                                     format_bytes(static_cast<int64_t>(fit->slope_bytes_per_step)), c.steps_seen)});
  }
  c.no_autograd = no_autograd_frame;
  if (no_autograd_frame) eval_frame = false;  // a runtime without autograd: no graph kept (frame_facts())
  // A diffusers pipeline built and then called, before the report (or after it, where the report is told
  // first, in a title): its __call__ is under @torch.no_grad() (outputs kept, not graphs). Not a pipeline
  // built only to save the model.
  const int64_t built = ev.diffusers_pipeline_line;
  if (built > 0 && std::any_of(ev.pipeline_call_lines.begin(), ev.pipeline_call_lines.end(), [&](int64_t l) {
        return l > built && (built > oom_line || l <= oom_line);
      })) {
    no_grad_frame = true;
  }
  c.no_grad_frame = no_grad_frame;
  // A traceback prints the innermost call last. A load / cast frame with frames of another phase
  // under it only passed the model on, its move or cast done ("trainer.fit(model.float(), dm)"
  // down to "out = self.model(**batch)"; "evaluate(model.half(), loader)" down to "logits =
  // model(images)"): the phase is theirs. A load's own frames (nn.Module.to, _apply, convert,
  // from_pretrained's) are load frames to the innermost line.
  const int64_t inner_other_line = std::max({inner_fwd_line, loss_line, back_line, eval_line, dl_line, attn_line});
  if (load_frame && !load_is_initializer && inner_other_line > load_line) load_frame = false;
  // One code line calling backward at its end ("scaler.scale(criterion(model(x), y)).backward()")
  // with the forward's frames under it: the OOM is in the forward the line runs first, not in
  // autograd (whose own frames, torch/_tensor.py and autograd/, make more than one backward line;
  // a checkpointed block recomputing its forward inside the backward keeps them).
  if (back_frame && back_frames == 1 && inner_fwd_line > back_line) back_frame = false;
  // Phase from the traceback, innermost decisive marker first.
  auto frame_signal = [&](OomCause cause, double w, int64_t line, const std::string& what) {
    c.signals.push_back({cause, w, line, "traceback: " + what});
    c.clues.push_back(fmt::format("log line {} ({})", line, what));
  };
  const bool inference = eval_frame || inference_stated || model_eval_last;
  if (save_frame && !optim_frame) {
    c.phase = "save";
    frame_signal(OomCause::kOther, 0.35, save_line, save_what + " (saving should not need the GPU: a library's save path)");
  } else if (optim_frame) {
    c.phase = "optimizer_step";
    c.in_optimizer = true;
    frame_signal(OomCause::kOptimizerState, c.steps_seen <= 1 ? 0.55 : 0.45, optim_line, optim_what);
  } else if (gen_frame) {
    c.phase = "generate";
    c.generation = true;
    frame_signal(OomCause::kGenerationKvCache, 0.45, gen_line, gen_what);
  } else if (load_frame) {
    c.phase = "model_load";
    c.loading = true;
    // A TensorFlow variable's initializer: the variables do not fit, or the device was full
    // before they were created (another process): weaker than a load frame of the model's own.
    // A load onto the CPU told as the fix (cpu_load_fixed()): the load put a checkpoint's tensors on
    // the GPU (beside the model's own, or every rank's on cuda:0), not a model too large for it.
    const bool cpu_load_fix = ev.cpu_load_fix_line > 0 && !load_is_initializer;
    // The optimizer's saved state deserialized onto the GPU (a resume): its moments, not the model's
    // weights, land beside the model.
    // (Several ranks or GPUs in the log: each rank's state lands on GPU 0, the load phase's reading.)
    if (load_what.rfind(kOptimizerDeserialized, 0) == 0 && !several_gpus_told(ev)) {
      frame_signal(OomCause::kOptimizerState, cpu_load_fix ? 0.3 : 0.45, load_line, load_what);
    } else
    frame_signal(OomCause::kStaticModelTooLarge, load_is_initializer ? 0.25 : cpu_load_fix ? 0.15 : 0.45, load_line,
                 cpu_load_fix ? load_what + " (a load onto the CPU is told as the fix)" : load_what);
  } else if (eval_frame && !no_grad_frame) {
    c.phase = "eval";
    c.eval = true;
    frame_signal(OomCause::kEvalWithoutNoGrad, 0.4, eval_line, eval_what);
  } else if (eval_frame) {
    c.phase = "eval";
    c.eval = true;
    frame_signal(OomCause::kEvalWithoutNoGrad, 0.25, eval_line, eval_what + " (under no_grad: outputs kept, not graphs)");
  } else if (dl_frame) {
    c.phase = "dataloader";
    frame_signal(OomCause::kCpuRam, 0.3, dl_line, dl_what);
  } else if (back_frame) {
    c.phase = "backward";
    c.in_backward = true;
    frame_signal(OomCause::kActivationsBatch, 0.15, back_line, back_what);
  } else if (loss_frame && loss_line > std::max(fwd_line, attn_line)) {
    // The loss frame innermost: "loss = criterion(out, y)" down to F.cross_entropy, the logits;
    // not HF Trainer's compute_loss() calling the model's forward, which fails deeper.
    c.phase = "loss";
  } else if (fwd_frame || attn_frame || loss_frame) {
    c.phase = "forward";
  }
  if (attn_frame && !optim_frame && !load_frame) {
    c.in_attention = true;
    frame_signal(OomCause::kActivationsSeqlen, 0.2, attn_line, attn_what);
  }
  if (!c.phase.empty() && c.phase != "optimizer_step" && c.phase != "model_load" && c.phase != "generate" &&
      model_eval_last) {
    c.signals.push_back({OomCause::kEvalWithoutNoGrad, 0.3, model_eval_line, "model.eval() just before the OOM"});
  } else if (c.phase.empty() && model_eval_last) {
    c.phase = "eval";
    c.eval = true;
    c.signals.push_back({OomCause::kEvalWithoutNoGrad, 0.3, model_eval_line, "model.eval() just before the OOM"});
  }
  if (shards_last && c.steps_seen == 0 && c.phase.empty()) {
    c.phase = "model_load";
    c.loading = true;
  }
  (void)shards_line;
  // Statements and words: a kind of statement counts once (its strongest line).
  std::sort(statements.begin(), statements.end(), [](const Signal& a, const Signal& b) {
    return std::abs(a.weight) > std::abs(b.weight);
  });
  std::set<std::pair<int, std::string>> kinds_seen;
  // The checkpoint itself told kept (checkpoint_kept_line): a resume's memory is that object's, not
  // the optimizer's state.
  // Several ranks or GPUs: the resume's checkpoint lands on GPU 0 for every rank (the load's reading
  // weighs that), the optimizer's state is no more than its share.
  if (ev.checkpoint_kept_line > 0 || several_gpus_told(ev)) {
    for (Signal& s : statements) {
      if (s.what.rfind(kResumeOptimizer, 0) == 0) s.weight = 0.15;
      if (ev.checkpoint_kept_line == 0) continue;
      if (s.cause == OomCause::kOther && s.what.rfind("fails when resuming from a checkpoint (", 0) == 0) s.weight = 0.5;
    }
  }
  // The workers' pools read as other processes' memory only where a device allocation failed in RMM or
  // CUDA and no pool tells its own cap exceeded (that is a worker's pool too small for its work: the
  // pool is this process's); a worker's host RAM is not the GPU's.
  if (ev.rmm_pool_cap_line > 0 || ev.rmm_device_fail_line == 0) {
    statements.erase(std::remove_if(statements.begin(), statements.end(),
                                    [](const Signal& s) { return s.what.rfind(kWorkersPool, 0) == 0; }),
                     statements.end());
  }
  // Memory allotted to a job, a cloud machine's type, swap set up and an HPC job's memory, read as host
  // RAM only in a log that names no accelerator (a CUDA OOM beside "64GB of RAM to the job" or "64GB
  // RAM and 16GB swap" is the GPU's).
  if (accelerator_named) {
    statements.erase(std::remove_if(statements.begin(), statements.end(),
                                    [](const Signal& s) {
                                      return s.what.rfind(kJobAllotted, 0) == 0 || s.what.rfind(kMachineType, 0) == 0 ||
                                             s.what.rfind(kSwapSetUp, 0) == 0 || s.what.rfind(kHpcJobMemory, 0) == 0;
                                    }),
                     statements.end());
  }
  // for_inference read only where no no_grad / inference_mode shows and nothing calls generate()
  // (which runs under no_grad: its memory is the KV cache's).
  auto drop = [&](std::string_view kind) {
    statements.erase(std::remove_if(statements.begin(), statements.end(),
                                    [&](const Signal& s) { return s.what.rfind(kind, 0) == 0; }),
                     statements.end());
  };
  if (c.no_grad_seen || ev.generate_call_line > 0) drop(kForInference);
  // ... and a forward's output detached only where, besides, nothing trains (a training step detaches
  // what it logs or feeds back: "fake = netG(z).detach()").
  // (Nor where autograd is turned off another way, "torch.set_grad_enabled(False)", "vae.requires_grad_(False)",
  // or a loss, backward() or an optimizer is named: "z1 = target(x1).detach()" in a BYOL step.)
  if (c.no_grad_seen || ev.generate_call_line > 0 || ev.training_line > 0 || ev.train_token_line > 0 ||
      ev.grad_disabled_line > 0 || ev.loss_or_step_line > 0) {
    drop(kForwardDetached);
  }
  for (const Signal& s : statements) {
    const std::string kind = s.what.substr(0, s.what.find(':'));
    if (!kinds_seen.insert({static_cast<int>(s.cause), kind}).second) continue;
    Signal adj = s;
    // In inference, memory growing batch after batch is graphs kept (eval without no_grad).
    // So is memory told growing forward pass after forward pass where nothing trains ("after every
    // forward pass RAM consumption increases"): each call's graph kept, no backward frees it.
    const bool forward_growth = !ev.training_line && !c.no_grad_seen && (s.what.find("forward pass") != std::string::npos ||
                                                      s.what.find("forward call") != std::string::npos);
    if (s.cause == OomCause::kLeakAcrossSteps && s.weight >= 0.3 && (inference || forward_growth)) {
      c.signals.push_back(
          {OomCause::kEvalWithoutNoGrad, s.weight * 0.9, s.line, s.what + " (during inference)", s.prose});
      adj.weight = s.weight * 0.4;
    }
    if (s.cause == OomCause::kEvalWithoutNoGrad && c.no_grad_seen && s.weight > 0) adj.weight = s.weight * 0.5;
    if (s.cause == OomCause::kGenerationKvCache) c.generation = c.generation || s.weight >= 0.3;
    if (s.cause == OomCause::kEvalWithoutNoGrad && s.weight >= 0.2) c.eval = true;
    c.signals.push_back(adj);
    if (!adj.what.empty()) c.clues.push_back(fmt::format("log line {}: {}", s.line, adj.what));
  }
  // A model being quantized or calibrated (post-training quantization: AutoAWQ, GPTQ, llm-compressor,
  // ModelOpt) holds its unquantized 16-bit weights while it calibrates: 2 bytes a parameter before
  // any saving (Frantar et al. 2023, GPTQ, section 4: layers quantized one by one from the full model).
  // (Not beside a kill for memory told: the scheduler's or the kernel's kill is the host's.)
  if (ev.calibration_line && !ev.memory_kill_line) {
    c.signals.push_back({OomCause::kStaticModelTooLarge, 0.2, ev.calibration_line,
                         "a model being quantized: post-training quantization loads the unquantized 16-bit weights "
                         "first"});
  }
  // A model being exported or converted where nothing trains (torch.onnx.export, torch.jit.trace):
  // the export runs one traced forward pass at its example input over all of the model's weights (in
  // fp32 unless the model was cast: torch.onnx.export keeps the weights' dtype), no optimizer, no
  // batch beyond the example: the weights, or the example input's size, are what it holds.
  if (ev.export_told_line && !ev.training_line && !ev.memory_kill_line) {
    c.signals.push_back({OomCause::kStaticModelTooLarge, 0.2, ev.export_told_line,
                         "a model being exported: one traced forward pass at the example input over all of its weights, "
                         "no optimizer and no batch beyond the example"});
  }
  // An LLM run with no training anywhere in the log: it is generating (weights + KV cache). Not a
  // model being quantized, pruned, edited or unlearned (calibration passes, a pruner's gradients, an
  // edit's statistics: no generation) unless generation is named.
  if (llm_inference && c.phase != "model_load" && c.phase != "optimizer_step") {
    c.signals.push_back({OomCause::kGenerationKvCache, 0.3, ev.llm_line,
                         "an LLM run without training in the log: inference, where the KV cache grows with "
                         "batch x length",
                         true});
  }
  // PyTorch 0.4 made volatile=True a no-op: inference code that ran on 0.3 builds graphs on 0.4.
  // Inference keeps graphs: not a traceback through backward or the optimizer (a training step).
  if (ev.torch03_line && ev.torch04_line && c.phase != "backward" && c.phase != "optimizer_step") {
    c.signals.push_back({OomCause::kEvalWithoutNoGrad, 0.4, ev.torch04_line,
                         "runs on PyTorch 0.3, OOMs on 0.4: 0.4 ignores volatile=True, so inference keeps graphs",
                         true});
  }
  // Settings logged before the report (or pasted after it).
  c.batch_size = last_before(ev.batch, oom_line, to);
  c.seq_len = last_before(ev.seq, oom_line, to);
  c.num_gpus = last_before(ev.gpus, oom_line, to);
  c.gpus_named = last_before(ev.gpus_named, oom_line, to);
  if (auto m = last_before(ev.models, oom_line, to)) c.model_name = *m;
  c.model_params = last_before(ev.params, oom_line, to);
  c.llm_inference = llm_inference;
  c.llm_exported = llm_untrained && (ev.export_told_line > 0 || ev.conversion_line > 0);
  // Quantized weights sized as such; not in an export that quantizes the model now (a GPTQ export:
  // the model is loaded at its stored 16-bit size to be quantized), unless a quantizer at load
  // (bitsandbytes' load_in_4bit) makes it small first.
  c.quantized = ev.quantized_line > 0 && (ev.export_quant_line == 0 || ev.load_quantized_line > 0);
  c.training = ev.training_line > 0;
  c.training_line = ev.training_line;
  if (ev.stated_device_bytes > 0) c.stated_device_bytes = ev.stated_device_bytes;
  if (ev.host_ram_bytes > 0 && ev.linux_line == 0 && ev.memory_fraction_line == 0) c.host_ram_bytes = ev.host_ram_bytes;
  c.no_gpu_line = ev.no_gpu_line;
  c.unified_memory_line = ev.unified_memory_line;
  c.accelerator_line = ev.accelerator_line > 0 ? ev.accelerator_line : ev.device_named_line;
  c.illegal_access_line = ev.illegal_access_line;
  // (The first at or after the report, within the 12 lines after it: its message or its frames.)
  if (const auto it = std::lower_bound(ev.host_allocator_lines.begin(), ev.host_allocator_lines.end(), oom_line);
      it != ev.host_allocator_lines.end() && *it <= oom_line + 12) {
    c.host_allocator_line = *it;
  }
  // The memory_summary() table nearest the report within its window (one printed in an except handler
  // after the message, or just before it), not one from the run's start with its peaks at zero.
  for (const MemorySummaryTable& m : ev.memory_summaries) {
    if (m.line < from || m.line > to || (m.allocated_peak_bytes == 0 && m.reserved_peak_bytes == 0)) continue;
    if (!c.memory_summary || std::llabs(m.line - oom_line) < std::llabs(c.memory_summary->line - oom_line)) c.memory_summary = m;
  }
  // A scheduler's stop just before the report (or its banner just after it), with no kill for
  // memory told anywhere in the log; an interrupt by hand within the lines before it.
  // Not when a command starts between the two (the stop or the interrupt was another run's).
  auto command_between = [&](int64_t after, int64_t before) {
    const auto it = std::upper_bound(ev.command_lines.begin(), ev.command_lines.end(), after);
    return it != ev.command_lines.end() && *it < before;
  };
  if (ev.memory_kill_line == 0) {
    for (const auto& [line, what] : ev.job_stops) {
      if (line >= oom_line - kStopLinesBefore && line <= oom_line + kStopLinesAfter && !command_between(line, oom_line)) {
        c.job_stop_line = line;
        c.job_stop_what = what;
      }
    }
  }
  for (const int64_t line : ev.interrupts) {
    if (line < oom_line && line >= oom_line - kStopLinesBefore && line > prev_oom_line && !command_between(line, oom_line)) {
      c.interrupt_line = line;
    }
  }
  // A data engine that runs in host memory (DuckDB, SQLite, PostgreSQL, Polars, PySpark ...) or
  // host-only compute (joblib's workers, scikit-learn) named and no accelerator anywhere in the log: what ran out is the host's RAM (or the engine's memory_limit).
  if (ev.host_engine_line > 0 && !accelerator_named) {
    c.signals.push_back({OomCause::kCpuRam, 0.4, ev.host_engine_line,
                         "a data engine, host-only compute (joblib, scikit-learn) or a CI runner that runs in host "
                         "memory is named, and no accelerator anywhere in the log"});
  }
  // TensorFlow imported beside JAX or PyTorch, and not kept off the GPU: TensorFlow's allocator
  // maps nearly all of the GPU's memory at its first op (TensorFlow's GPU guide, "Limiting GPU
  // memory growth"), tensorflow_datasets' pipeline too, leaving the other framework the rest.
  if (ev.tf_import_line > 0 && (ev.jax_import_line > 0 || ev.torch_import_line > 0) && !ev.tf_gpu_hidden) {
    c.signals.push_back({OomCause::kOther, 0.5, ev.tf_import_line,
                         "TensorFlow imported beside " + std::string(ev.jax_import_line > 0 ? "JAX" : "PyTorch") +
                             " in one process, not kept off the GPU: TensorFlow maps most of the GPU's memory for its "
                             "own pool at its first op"});
  }
  // A kernel's module failing to load on the report's own line (preallocation not turned off): no kernel's data
  // but the device's memory already taken, most often by a framework's pool reserved up front (XLA
  // preallocates 75% of the GPU, TensorFlow nearly all of it; JAX's "GPU memory allocation" note).
  for (const int64_t line : ev.module_load_oom_lines) {
    if (line == oom_line && ev.xla_prealloc_off_line == 0) {
      c.signals.push_back({OomCause::kOther, 0.45, line,
                           "a kernel's module (CUBIN) could not load: the GPU's memory already taken, most often by a "
                           "framework's pool reserved up front"});
      break;
    }
  }
  // TensorRT's builder failing an allocation for a tactic and skipping that tactic, from 30 lines
  // before the report to 10 after it, no finished build between them: the builder's warning, it builds with another tactic (TensorRT's developer guide,
  // "Memory: the builder"); the workspace limit, not the model, sized the request.
  for (const int64_t line : ev.tactic_skip_lines) {
    const bool built_between = std::any_of(ev.engine_built_lines.begin(), ev.engine_built_lines.end(), [&](int64_t b) {
      return b > std::min(line, oom_line) && b < std::max(line, oom_line);
    });
    if (line >= oom_line - 30 && line <= oom_line + 10 && !built_between) {
      c.signals.push_back({OomCause::kOther, 0.55, line,
                           "TensorRT's builder skips a tactic whose scratch memory did not fit and goes on with another "
                           "(a warning, not the failure)"});
      break;
    }
  }
  if (ev.named_device_bytes > 0) c.named_device_bytes = ev.named_device_bytes;
  // Adapters (LoRA / PEFT, not denied), a stateless or factored optimizer (SGD, Adafactor) or the
  // optimizer offloaded, named anywhere: the optimizer's state on the GPU is small (classify's
  // fine-tuning arithmetic does not apply).
  // (Adapters named beside a full fine-tuning named as the run, "with finetuning_type='lora' it starts;
  // with finetuning_type='full' it OOMs": the failing run trains every parameter with Adam.)
  const bool adapters_run = ev.lora_line > 0 && ev.full_finetune_line == 0;
  c.optimizer_state_small = adapters_run || ev.small_optimizer_line > 0;
  c.adapters_named = adapters_run;
  c.full_training_named = ev.full_finetune_line > 0;
  c.device_map_split = ev.device_map_split_line > 0;
  // The model's state split over the GPUs (DeepSpeed's ZeRO, FSDP, a tensor- / model-parallel size);
  // plain DDP keeps a whole copy on each.
  // (DeepSpeed at ZeRO stage 0 shards nothing.)
  c.state_sharded = (ev.framework_hits[1] > 0 && !ev.zero0_line) || ev.framework_hits[2] > 0 || ev.model_split_line > 0 ||
                    ev.zero3_line > 0;
  c.one_gpu_told = ev.one_gpu_line > 0;
  c.sharding_denied = (ev.sharding_denied_line > 0 || ev.zero0_line > 0) && !c.state_sharded;
  c.structure_model_named = ev.structure_model_line > 0;
  c.replay_memory_line = ev.replay_memory_line;
  // A load onto the CPU told as the fix in a run of several ranks (DistributedDataParallel's frames,
  // a launcher's process count, ranks named, GPUs counted: "a model sharded across 8 GPUs"): every rank restored the checkpoint onto the GPU it was saved from,
  // cuda:0 (torch.load without map_location).
  // (GPUs counted anywhere in the log: a PR's title can be the report, its account below it.)
  const bool gpus_counted = !ev.gpus_named.empty();  // (counts of 2 and more only: gpu_count())
  if (ev.cpu_load_fix_line > 0 &&
      (ev.ddp_frame_line > 0 || ev.ranks_line > 0 || (c.num_gpus && *c.num_gpus > 1) || gpus_counted)) {
    c.signals.push_back({OomCause::kMultiGpuImbalance, 0.45, ev.cpu_load_fix_line,
                         "a load onto the CPU told as the fix, in a run of several ranks: each rank restored the "
                         "checkpoint onto the GPU it was saved from (rank 0's, usually cuda:0)"});
  }
  // A protein structure model named (structure_model_word()): its activations grow with the residues
  // squared, and it runs one complex at a time, so the input's length is the likelier size to blame.
  // A little weight, never deciding.
  if (ev.structure_model_line > 0) {
    c.signals.push_back({OomCause::kActivationsSeqlen, 0.15, 0,
                         "a protein structure model named (its pair representation is N x N over the residues: "
                         "the input's length scales its memory)"});
  }
  // An image-generation app or pipeline named (image_generation_named()) in a log that trains nothing
  // (no training word, no "train" inside a word, no LoRA) and names no batch: it generates one image
  // at a time, so the image's resolution (the latent's self-attention) is the activations' size to
  // blame, not a batch. A little weight, never deciding.
  if (ev.image_generation_line > 0 && !c.training && ev.train_token_line == 0 && ev.lora_line == 0 &&
      ev.batch_word_line == 0) {
    c.signals.push_back({OomCause::kActivationsSeqlen, 0.15, 0,
                         "an image-generation app or pipeline named, generating (not training): one image's "
                         "resolution (self-attention over its latent) sizes the activations"});
    c.signals.push_back({OomCause::kActivationsBatch, -0.1, 0, ""});
  }
  // (A smaller batch told not helping beside it leaves the length as the input's size that decides:
  // one sample of that length is what does not fit.)
  const bool batch_in_vain = ev.batch_in_vain_line > 0 && ev.batch_in_vain_line >= from && ev.batch_in_vain_line <= to;
  if (c.seq_len && *c.seq_len >= 4096) {
    c.signals.push_back({OomCause::kActivationsSeqlen, *c.seq_len >= 16384 || batch_in_vain ? 0.3 : 0.2,
                         batch_in_vain ? ev.batch_in_vain_line : 0,
                         batch_in_vain ? fmt::format("logged sequence length {}, and a smaller batch told not helping",
                                                     *c.seq_len)
                                       : fmt::format("logged sequence length {}", *c.seq_len)});
  }
  if (c.batch_size && *c.batch_size <= 2) {
    // At batch 1-2 the batch is not what is large: static memory or the size of one sample
    // (sequence length, image resolution).
    c.signals.push_back({OomCause::kStaticModelTooLarge, *c.batch_size == 1 ? 0.15 : 0.05, 0,
                         fmt::format("logged batch size {}", *c.batch_size)});
    c.signals.push_back({OomCause::kActivationsSeqlen, 0.15, 0,
                         fmt::format("logged batch size {}: one sample's size (sequence / resolution) dominates", *c.batch_size)});
    c.signals.push_back({OomCause::kActivationsBatch, -0.15, 0, ""});
  } else if (c.batch_size && *c.batch_size >= 32) {
    c.signals.push_back({OomCause::kActivationsBatch, 0.1, 0, fmt::format("logged batch size {}", *c.batch_size)});
  }
  // nvidia-smi's process rows for one GPU: several processes each holding the same few hundred MiB
  // (within 10%, at most 2 GiB) beside one large one are one CUDA context apiece, a job's ranks each
  // initialising CUDA on that GPU; three or more, or as many as the other GPUs the user counts.
  {
    const int64_t gpus_told = std::max<int64_t>(c.num_gpus.value_or(1), c.gpus_named.value_or(1));
    std::map<int64_t, std::vector<int64_t>> by_gpu;
    std::map<int64_t, int64_t> first_line;  // each GPU's first row
    for (const auto& r : ev.smi_rows) {
      by_gpu[r[1]].push_back(r[2]);
      first_line.emplace(r[1], r[0]);
    }
    for (const auto& [gpu, mibs] : by_gpu) {
      const int64_t row_line = first_line[gpu];
      const EqualHoldings held = equal_small_holdings(mibs, 2048);
      const size_t large = held.large, equal = held.count;
      const int64_t at = held.lo;
      // (Fewer than three only beside the one large process that is this GPU's own rank.)
      if (large <= 1 && at >= 256 &&
          (equal >= 3 || (large == 1 && gpus_told >= 2 && equal >= 1 && static_cast<int64_t>(equal) >= gpus_told - 1))) {
        c.signals.push_back({OomCause::kMultiGpuImbalance, 0.45, row_line,
                             fmt::format("nvidia-smi lists {} process{} on GPU {} each holding about {} MiB: one CUDA context "
                                         "apiece, a job's ranks each initialising CUDA on this device",
                                         equal, equal > 1 ? "es" : "", gpu, at)});
        c.multi_gpu = true;
        break;
      }
    }
  }
  // nvidia-smi's process table listing graphics processes alone (type G: the desktop's Xorg, a
  // browser), 1 GiB or less in all, no compute (C) process: no other job computes on the GPU, so
  // none holds its memory; the word prior's "processes" / "MiB" (the table's own words) aside.
  if (!ev.smi_rows.empty() && std::none_of(ev.smi_rows.begin(), ev.smi_rows.end(), [](const auto& r) { return r[3] == 1; })) {
    int64_t total_mib = 0;
    for (const auto& r : ev.smi_rows) total_mib += r[2];
    // (Not where the GPU's own row shows far more used than the rows hold: processes the table cannot
    // see, another container's or another PID namespace's, hold the rest.)
    if (total_mib <= 1024 && ev.smi_used_mib <= total_mib + 1024) {
      c.signals.push_back({OomCause::kOtherProcess, -0.2, ev.smi_rows.front()[0], ""});
    }
  }
  if ((c.num_gpus && *c.num_gpus > 1) || ev.device_ids.size() >= 2) {
    c.multi_gpu = true;
    c.signals.push_back({OomCause::kMultiGpuImbalance, 0.05, 0,
                         ev.device_ids.size() >= 2 ? fmt::format("{} different GPU ids appear", ev.device_ids.size())
                                                   : fmt::format("logged {} GPUs", *c.num_gpus)});
  }
  for (const Signal& s : c.signals) c.multi_gpu = c.multi_gpu || (s.cause == OomCause::kMultiGpuImbalance && s.weight > 0);
  // The framework: the most specific one the log names.
  c.framework = "pytorch";
  c.torch_named = ev.framework_hits[9] > 0;
  c.framework_named = c.torch_named;
  for (size_t f = 0; f < 9; ++f) {
    if (ev.framework_hits[f] > 0) {
      c.framework = kFrameworks[f];
      c.framework_named = true;
      break;
    }
  }
  // An object collective in the traceback just before the report (after the previous one), in a
  // log that never calls set_device: every rank's gathered data on cuda:0, not an evaluation's graph.
  if (ev.set_device_line == 0) {
    for (const int64_t line : ev.collective_lines) {
      // In the traceback before the report, or pasted under a report told in words (as frames are).
      const bool before = line <= oom_line && line >= oom_line - kTracebackLines && (tb_start == 0 || line >= tb_start);
      const bool under = line > oom_line && line - oom_line <= 60 && tb_start == 0 && (next_oom_line == 0 || line < next_oom_line);
      if (line > prev_oom_line && (before || under)) {
        c.signals.push_back({OomCause::kMultiGpuImbalance, 0.5, line,
                             "traceback: an object collective (all_gather_object / gather_object / broadcast_object_list) "
                             "puts every rank's data on the current device, cuda:0 unless set_device was called"});
        c.signals.push_back({OomCause::kEvalWithoutNoGrad, -0.2, line, ""});
        break;
      }
    }
  }
  // llama.cpp's KV-cache failure told within the lines after the report (its failing buffer's).
  for (const int64_t line : ev.kv_cache_failed_lines) {
    if (line >= oom_line && line <= oom_line + 10) c.kv_cache_failed_line = line;
  }
  // ggml's graph allocator failing within the report's lines or just after them.
  for (const int64_t line : ev.compute_buffer_failed_lines) {
    if (line >= oom_line && line <= oom_line + 10 && c.compute_buffer_failed_line == 0) c.compute_buffer_failed_line = line;
  }
  // llama.cpp's context told in the run that failed: within 300 lines before the report or 10 after.
  for (const int64_t line : ev.llama_context_lines) {
    c.llama_context = c.llama_context || (line >= oom_line - 300 && line <= oom_line + 10);
  }
  c.megengine_named = ev.megengine_named;
  c.caffe_named = ev.caffe_named;
  c.mxnet_named = ev.mxnet_named;
  c.darknet_named = ev.darknet_named;
  c.rapids_named = ev.rapids_named;
  c.caffe_cudnn = ev.caffe_cudnn;
  c.mlx_named = ev.mlx_named;
  c.native_runtime_named = ev.native_runtime_named;
  // TensorFlow's exception opening a line, in a log that names no framework, not torch, not Paddle.
  if (!c.framework_named && ev.tf_exception_line > 0 && !ev.paddle_named) {
    c.framework = "tensorflow";
    c.framework_named = true;
  }
  // No torch anywhere, and TensorFlow / JAX (whose inference keeps no tape) or a runtime without
  // autograd named: an evaluation there keeps no graph (none of the corpus's 1111 reports labelled
  // eval_without_no_grad is TensorFlow's or JAX's).
  c.autograd_free_log = !c.torch_named && (c.framework == "tensorflow" || c.framework == "jax" || ev.no_autograd_line > 0);
  return c;
}

LogContext scan_context(std::string_view log_text, int64_t oom_line) {
  return context_at(*read_log_evidence(log_text), oom_line);
}

}  // namespace oomkit
