// gapscope-gen-trace OUT SIZE_MB [--seed N] [--gzip]
//
// Writes a Kineto-like Chrome trace of about SIZE_MB megabytes, formatted
// the way torch.profiler writes it: profiler steps holding nested CPU ops
// with record_shapes args, CUDA runtime launches with correlation ids and
// ac2g flows, kernels with launch configuration args on two streams,
// memcpys, a few python_function frames, and the metadata events.
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

// Microseconds with three decimals, as Kineto writes them.
std::string us(std::int64_t ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
  return buf;
}

class Sink {
 public:
  Sink(const char* path, bool gzip) {
    if (gzip) gz_ = gzopen(path, "wb6");
    else file_ = std::fopen(path, "wb");
    if (!gz_ && !file_) {
      std::perror(path);
      std::exit(1);
    }
  }
  ~Sink() {
    flush();
    if (gz_) gzclose(gz_);
    if (file_) std::fclose(file_);
  }
  void put(const std::string& s) {
    buf_ += s;
    written_ += s.size();
    if (buf_.size() > (1 << 20)) flush();
  }
  std::uint64_t written() const { return written_; }
  // A write failed (a full disk): the generator stops instead of going on.
  bool failed() const { return failed_; }

 private:
  void flush() {
    if (buf_.empty()) return;
    const std::size_t done = gz_ ? static_cast<std::size_t>(std::max(0, gzwrite(gz_, buf_.data(), static_cast<unsigned>(buf_.size()))))
                                 : std::fwrite(buf_.data(), 1, buf_.size(), file_);
    failed_ = failed_ || done != buf_.size();
    buf_.clear();
  }
  gzFile gz_ = nullptr;
  FILE* file_ = nullptr;
  std::string buf_;
  bool failed_ = false;
  std::uint64_t written_ = 0;
};

struct Op {
  const char* name;
  const char* dims;
  const char* types;
  const char* strides;
  const char* concrete;
};

const std::vector<Op> kOps = {
    {"aten::linear", "[[256, 1024], [4096, 1024], [4096]]", "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]",
     "[[1024, 1], [1024, 1], [1]]", "[\"\", \"\", \"\"]"},
    {"aten::addmm", "[[4096], [256, 1024], [1024, 4096], [], []]",
     "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"]",
     "[[1], [1024, 1], [1, 1024], [], []]", "[\"\", \"\", \"\", \"1\", \"1\"]"},
    {"aten::gelu", "[[256, 4096], []]", "[\"c10::BFloat16\", \"\"]", "[[4096, 1], []]", "[\"\", \"'none'\"]"},
    {"aten::layer_norm", "[[16, 512, 768], [], [768], [768], [], []]",
     "[\"float\", \"ScalarList\", \"float\", \"float\", \"Scalar\", \"Scalar\"]",
     "[[393216, 768, 1], [], [1], [1], [], []]", "[\"\", \"[768]\", \"\", \"\", \"1e-05\", \"True\"]"},
    {"aten::add", "[[256, 4096], [256, 4096], []]", "[\"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"]",
     "[[4096, 1], [4096, 1], []]", "[\"\", \"\", \"1\"]"},
    {"aten::copy_", "[[64, 4096], [64, 4096], []]", "[\"float\", \"float\", \"Scalar\"]", "[[4096, 1], [4096, 1], []]",
     "[\"\", \"\", \"False\"]"},
};

const std::vector<const char*> kChildren = {"aten::t", "aten::transpose", "aten::as_strided", "aten::empty",
                                            "aten::view", "aten::resolve_conj"};

const std::vector<const char*> kKernels = {
    "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_bias_TNT",
    "void at::native::vectorized_elementwise_kernel<8, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, "
    "std::array<char*, 2ul> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
    "{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)",
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float "
    "const*, float const*, float*, float*, float*)",
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::"
    "BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1}>(int, "
    "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, "
    "at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1})",
};

class Generator {
 public:
  Generator(Sink& out, std::uint64_t seed) : out_(out), rng_(seed) {}

  void header() {
    out_.put(
        "\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\n      \"id\": 0, \"name\": \"NVIDIA H200\", "
        "\"totalGlobalMem\": 150109880320,\n      \"computeMajor\": 9, \"computeMinor\": 0,\n      "
        "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n      \"regsPerBlock\": 65536, "
        "\"warpSize\": 32,\n      \"sharedMemPerBlock\": 49152, \"numSms\": 132\n    , \"regsPerMultiprocessor\": "
        "65536, \"sharedMemPerBlockOptin\": 232448, \"sharedMemPerMultiprocessor\": 233472\n    }\n  ],\n"
        "  \"trace_id\": \"0BC30689897A4F2C9CF06D03FF376CA3\",\n  \"record_shapes\": 1,\n  \"displayTimeUnit\": "
        "\"ms\",\n  \"baseTimeNanoseconds\": 1790857026000000000,\n  \"traceEvents\": [\n");
  }

  // One profiler step. Its events are written in start order, parents
  // before children, as Kineto writes them.
  void step(std::uint64_t limit) {
    const std::int64_t stepStart = now_;
    const std::uint64_t stepId = step_++;
    now_ += 5000;
    while (out_.written() + pendingBytes_ < limit && now_ - stepStart < 20'000'000) opGroup();
    now_ += 3000;
    complete("user_annotation", "ProfilerStep#" + std::to_string(stepId), pid_, pid_, stepStart, now_ - stepStart,
             "      \"External id\": " + std::to_string(externalId_++) + ",\"Record function id\": 0, \"Ev Idx\": " +
                 std::to_string(evIdx_++));
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const Pending& a, const Pending& b) { return a.start < b.start; });
    for (const Pending& p : pending_) out_.put(p.text);
    pending_.clear();
    pendingBytes_ = 0;
    now_ += 20000;
  }

  void footer() {
    for (int stream : {7, 13}) {
      metadata("process_name", "0", "0", "\"name\": \"python3\"");
      metadata("thread_name", "0", std::to_string(stream), "\"name\": \"stream " + std::to_string(stream) + " \"");
      metadata("thread_sort_index", "0", std::to_string(stream), "\"sort_index\": " + std::to_string(stream));
    }
    metadata("process_name", std::to_string(pid_), "0", "\"name\": \"python3\"");
    metadata("thread_name", std::to_string(pid_), std::to_string(pid_), "\"name\": \"thread 495 (python3)\"");
    out_.put("  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n    \"pid\": \"\", \"tid\": \"\", "
             "\"ts\": " +
             us(now_) + "\n  }\n  ],\n  \"traceName\": \"/tmp/traces/generated.json\"\n}");
  }

 private:
  std::uint64_t pick(std::uint64_t n) { return rng_() % n; }

  // Queues an event of the current step; metadata (start < 0) goes out at once.
  void event(std::int64_t start, const std::string& head, const std::string& args) {
    std::string e = "  {\n    " + head;
    if (!args.empty()) e += ",\n    \"args\": {\n" + args + "\n    }";
    e += "\n  },\n";
    if (start < 0) {
      out_.put(e);
      return;
    }
    pendingBytes_ += e.size();
    pending_.push_back({start, std::move(e)});
  }

  void complete(const char* cat, const std::string& name, int pid, int tid, std::int64_t ts, std::int64_t dur,
                const std::string& args) {
    event(ts,
          "\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name + "\", \"pid\": " +
              std::to_string(pid) + ", \"tid\": " + std::to_string(tid) + ",\n    \"ts\": " + us(ts) + ", \"dur\": " +
              us(dur),
          args);
  }

  void metadata(const char* name, const std::string& pid, const std::string& tid, const std::string& args) {
    event(-1,
          "\"name\": \"" + std::string(name) + "\", \"ph\": \"M\", \"ts\": " + us(0) + ", \"pid\": " + pid +
              ", \"tid\": " + tid,
          "      " + args);
  }

  std::string opArgs(const Op& op, bool withSequence) {
    std::string a = "      \"External id\": " + std::to_string(externalId_++) + ",";
    if (withSequence) a += "\"Sequence number\": " + std::to_string(pick(5000)) + ", \"Fwd thread id\": 0, ";
    a += "\"Record function id\": 0, \"Concrete Inputs\": " + std::string(op.concrete) + ", \"Input type\": " + op.types +
         ", \"Input Strides\": " + op.strides + ", \"Input Dims\": " + op.dims + ", \"Ev Idx\": " + std::to_string(evIdx_++);
    return a;
  }

  // One framework op: nested children, a launch (runtime call, flow start),
  // and the kernel it launched (later, on a stream, with its flow end).
  void opGroup() {
    const Op& op = kOps[pick(kOps.size())];
    const std::int64_t start = now_;
    if (pick(4) == 0) {
      complete("python_function", "torch/nn/modules/module.py(1747): _call_impl", pid_, pid_, start - 2000, 1000, "");
    }
    std::int64_t t = start + 1500 + static_cast<std::int64_t>(pick(2000));
    const int children = 1 + static_cast<int>(pick(3));
    for (int c = 0; c < children; ++c) {
      Op child{kChildren[pick(kChildren.size())], "[[4096, 1024], [], []]", "[\"c10::BFloat16\", \"Scalar\", \"Scalar\"]",
               "[[1024, 1], [], []]", "[\"\", \"0\", \"1\"]"};
      const std::int64_t dur = 2000 + static_cast<std::int64_t>(pick(8000));
      complete("cpu_op", child.name, pid_, pid_, t, dur, opArgs(child, false));
      t += dur + 500;
    }
    const bool memcpy = pick(20) == 0;
    const char* launch = memcpy ? "cudaMemcpyAsync" : "cudaLaunchKernel";
    const std::int64_t launchDur = 3000 + static_cast<std::int64_t>(pick(6000));
    const std::uint64_t corr = correlation_++;
    complete("cuda_runtime", launch, pid_, pid_, t, launchDur,
             "      \"External id\": " + std::to_string(externalId_) + ",      \"cbid\": " + (memcpy ? "51" : "211") +
                 ", \"correlation\": " + std::to_string(corr));
    event(t, "\"ph\": \"s\", \"id\": " + std::to_string(corr) + ", \"pid\": " + std::to_string(pid_) + ", \"tid\": " +
              std::to_string(pid_) + ", \"ts\": " + us(t) + ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"",
          "");
    const std::int64_t end = t + launchDur + 1000;
    complete("cpu_op", op.name, pid_, pid_, start, end - start, opArgs(op, true));
    gpuWork(corr, t + launchDur, memcpy);
    now_ = end + 2500 + static_cast<std::int64_t>(pick(3000));  // room for the next python frame
  }

  void gpuWork(std::uint64_t corr, std::int64_t launchedAt, bool memcpy) {
    const int stream = pick(8) == 0 ? 13 : 7;
    std::int64_t& free = stream == 7 ? stream7Free_ : stream13Free_;
    const std::int64_t start = std::max(free, launchedAt + 4000);
    const std::int64_t dur = memcpy ? 20000 : 1500 + static_cast<std::int64_t>(pick(40000));
    free = start + dur;
    const std::string common = "      \"External id\": " + std::to_string(externalId_ - 1) +
                               ",      \"queued\": 0, \"device\": 0, \"context\": 1,      \"stream\": " +
                               std::to_string(stream) + ", \"correlation\": " + std::to_string(corr) + ",";
    if (memcpy) {
      complete("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 0, stream, start, dur,
               common + "      \"bytes\": 1048576, \"memory bandwidth (GB/s)\": 52.4");
    } else {
      const std::uint64_t k = pick(kKernels.size());
      complete("kernel", kKernels[k], 0, stream, start, dur,
               common + "      \"registers per thread\": " + std::to_string(32 + 8 * pick(18)) +
                   ",      \"shared memory\": " + std::to_string(pick(2) ? 0 : 213268) +
                   ",      \"blocks per SM\": 0.969697,      \"warps per SM\": 11.636364,      \"grid\": [" +
                   std::to_string(1 + pick(1024)) + ", 64, 1],      \"block\": [" + std::to_string(128 * (1 + pick(3))) +
                   ", 1, 1],      \"est. achieved occupancy %\": " + std::to_string(pick(100)));
    }
    event(start, "\"ph\": \"f\", \"id\": " + std::to_string(corr) + ", \"pid\": 0, \"tid\": " + std::to_string(stream) +
              ", \"ts\": " + us(start) + ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"",
          "");
  }

  struct Pending {
    std::int64_t start;
    std::string text;
  };

  Sink& out_;
  std::vector<Pending> pending_;
  std::uint64_t pendingBytes_ = 0;
  std::mt19937_64 rng_;
  const int pid_ = 495;
  std::int64_t now_ = 4472705146000000;  // ns, Kineto-like epoch offset
  std::int64_t stream7Free_ = 0;
  std::int64_t stream13Free_ = 0;
  std::uint64_t step_ = 1;
  std::uint64_t externalId_ = 1;
  std::uint64_t evIdx_ = 0;
  std::uint64_t correlation_ = 1;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gapscope-gen-trace OUT SIZE_MB [--seed N] [--gzip]\n");
    return 2;
  }
  const char* out = argv[1];
  // A size that is no positive number (the arguments swapped, say) would
  // make the limit below wrap around and the file grow until the disk is full.
  char* end = nullptr;
  const double mb = std::strtod(argv[2], &end);
  if (end == argv[2] || *end != '\0' || !(mb >= 0.01) || mb > 1e7) {
    std::fprintf(stderr, "gapscope-gen-trace: SIZE_MB must be a number of megabytes (0.01 to 1e7), got '%s'\n", argv[2]);
    return 2;
  }
  std::uint64_t seed = 1;
  bool gzip = false;
  for (int i = 3; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--gzip")) gzip = true;
  }
  Sink sink(out, gzip);
  Generator g(sink, seed);
  const auto limit = static_cast<std::uint64_t>(std::max(mb * 1e6, 8192.0)) - 4096;
  g.header();
  while (sink.written() < limit && !sink.failed()) g.step(limit);
  g.footer();
  if (sink.failed()) {
    std::fprintf(stderr, "gapscope-gen-trace: writing %s failed (disk full?)\n", out);
    return 1;
  }
  std::printf("%s: %.1f MB of JSON text\n", out, static_cast<double>(sink.written()) / 1e6);
  return 0;
}
