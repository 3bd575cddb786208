// Golden tests: a small inline trace in, the exact dump of the model out.
// One test per phase and per anomaly (after Perfetto's diff tests).
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "test_util.h"

using gapscope::testing::dumpOf;

namespace {

const char* kNoMetadata = "metadata displayTimeUnit=\"\" baseTimeNanoseconds=0 devices=0 distributedInfo=-\n";

std::string withMeta(const std::string& tracks, const std::string& tail) { return tracks + kNoMetadata + tail; }

}  // namespace

TEST(Golden, CompleteEventsNestByTime) {
  EXPECT_EQ(dumpOf(R"({"traceEvents":[
    {"ph":"X","name":"outer","cat":"cpu_op","pid":1,"tid":1,"ts":100,"dur":50},
    {"ph":"X","name":"inner","cat":"cpu_op","pid":1,"tid":1,"ts":110.25,"dur":10.5},
    {"ph":"X","name":"next","cat":"cpu_op","pid":1,"tid":1,"ts":200,"dur":1}
  ]})"),
            withMeta("process 1 name=\"\" sort=1\n"
                     "  track cpu tid=1 name=\"\" sort=1 slices=3 rows=2 nested=2\n"
                     "    #0 100000 +50000 d0 cpu_op \"outer\" cat=\"cpu_op\"\n"
                     "    #1 110250 +10500 d1 cpu_op \"inner\" cat=\"cpu_op\"\n"
                     "    #2 200000 +1000 d0 cpu_op \"next\" cat=\"cpu_op\"\n",
                     "events=3 span=100000..201000\n"));
}

TEST(Golden, BeginEndPairsPerThreadUnmatchedAndUnclosed) {
  EXPECT_EQ(dumpOf(R"([
    {"ph":"B","name":"a","pid":1,"tid":1,"ts":1},
    {"ph":"B","name":"b","pid":1,"tid":1,"ts":2},
    {"ph":"E","pid":1,"tid":1,"ts":3},
    {"ph":"E","pid":1,"tid":1,"ts":4},
    {"ph":"E","pid":1,"tid":1,"ts":5},
    {"ph":"B","name":"open","pid":1,"tid":2,"ts":6},
    {"ph":"X","name":"late","pid":1,"tid":2,"ts":7,"dur":3}
  ])"),
            withMeta("process 1 name=\"\" sort=1\n"
                     "  track cpu tid=1 name=\"\" sort=1 slices=2 rows=2 nested=2\n"
                     "    #0 1000 +3000 d0 other \"a\" cat=\"\" from-B\n"
                     "    #1 2000 +1000 d1 other \"b\" cat=\"\" from-B\n"
                     "  track cpu tid=2 name=\"\" sort=2 slices=2 rows=2 nested=2\n"
                     "    #2 6000 +4000 d0 other \"open\" cat=\"\" unclosed from-B\n"
                     "    #3 7000 +3000 d1 other \"late\" cat=\"\"\n",
                     "events=7 span=1000..10000\n"
                     "issue unmatched_end warning x1\n"
                     "issue unclosed_begin warning x1\n"));
}

TEST(Golden, InstantsWithScopes) {
  EXPECT_EQ(dumpOf(R"({"traceEvents":[
    {"ph":"i","name":"g","s":"g","ts":1,"pid":1,"tid":1},
    {"ph":"I","name":"p","s":"p","ts":2,"pid":1,"tid":1,"cat":"c"},
    {"ph":"i","name":"t","ts":3,"pid":1,"tid":5,"args":{"k":"v"}}
  ]})"),
            withMeta("process 1 name=\"\" sort=1\n"
                     "  track cpu tid=5 name=\"\" sort=5 slices=0 rows=0 nested=0\n"
                     "instant 1000 scope=g \"g\" cat=\"\"\n"
                     "instant 2000 scope=p \"p\" cat=\"c\"\n"
                     "instant 3000 scope=t \"t\" cat=\"\" track=0 args={\"k\":\"v\"}\n",
                     "events=3 span=1000..3000\n"));
}

TEST(Golden, CountersOneSeriesPerNumericKey) {
  EXPECT_EQ(dumpOf(R"([
    {"ph":"C","name":"mem","pid":1,"ts":1,"args":{"value":10}},
    {"ph":"C","name":"mem","pid":1,"ts":2,"args":{"value":12.5}},
    {"ph":"C","name":"q","pid":1,"ts":1,"id":"7","args":{"a":1,"b":2,"label":"x"}},
    {"ph":"C","name":"none","pid":1,"ts":3,"args":{"s":"x"}}
  ])"),
            withMeta("process 1 name=\"\" sort=1\n"
                     "counter \"mem\" process=0 points=2 1000:10 2000:12.5\n"
                     "counter \"q 7 a\" process=0 points=1 1000:1\n"
                     "counter \"q 7 b\" process=0 points=1 1000:2\n",
                     "events=4 span=1000..3000\n"
                     "issue counter_without_values info x1\n"));
}

TEST(Golden, FlowV1LaunchToKernelWithBindingToEnclosingSlice) {
  EXPECT_EQ(
      dumpOf(R"({"traceEvents":[
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":10,"tid":10,"ts":100,"dur":5,"args":{"correlation":42}},
    {"ph":"s","id":42,"pid":10,"tid":10,"ts":100,"cat":"ac2g","name":"ac2g"},
    {"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":110,"dur":3,"args":{"correlation":42,"device":0,"stream":7,"grid":[1,1,1],"block":[128,1,1]}},
    {"ph":"f","id":42,"pid":0,"tid":7,"ts":110,"cat":"ac2g","name":"ac2g","bp":"e"},
    {"ph":"f","id":99,"pid":0,"tid":7,"ts":111,"cat":"ac2g","name":"ac2g","bp":"e"}
  ]})"),
      withMeta("process 0 name=\"\" sort=0 gpu\n"
               "  track gpu tid=7 name=\"\" sort=7 device=0 stream=7 slices=1 rows=1 nested=1\n"
               "    #0 110000 +3000 d0 kernel \"k1\" cat=\"kernel\" corr=42 kernel{grid=1,1,1 block=128,1,1 regs=-1 "
               "smem=-1 blocksPerSm=-1 warpsPerSm=-1 occ=-1 device=0 stream=7} "
               "args={\"correlation\":42,\"device\":0,\"stream\":7,\"grid\":[1,1,1],\"block\":[128,1,1]}\n"
               "process 10 name=\"\" sort=10\n"
               "  track cpu tid=10 name=\"\" sort=10 slices=1 rows=1 nested=1\n"
               "    #1 100000 +5000 d0 cuda_runtime \"cudaLaunchKernel\" cat=\"cuda_runtime\" corr=42 "
               "args={\"correlation\":42}\n"
               "flow launch id=42 cat=\"ac2g\" #1 -> #0\n",
               "events=5 span=100000..113000\n"
               "issue orphan_flow_end warning x1\n"));
}

TEST(Golden, FlowV2BindIds) {
  EXPECT_EQ(dumpOf(R"([
    {"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"bind_id":"0x10","flow_out":true},
    {"ph":"X","name":"b","pid":1,"tid":2,"ts":5,"dur":1,"bind_id":16,"flow_in":true},
    {"ph":"X","name":"c","pid":1,"tid":2,"ts":7,"dur":1,"bind_id":17,"flow_in":true}
  ])"),
            withMeta("process 1 name=\"\" sort=1\n"
                     "  track cpu tid=1 name=\"\" sort=1 slices=1 rows=1 nested=1\n"
                     "    #0 1000 +1000 d0 other \"a\" cat=\"\"\n"
                     "  track cpu tid=2 name=\"\" sort=2 slices=2 rows=1 nested=1\n"
                     "    #1 5000 +1000 d0 other \"b\" cat=\"\"\n"
                     "    #2 7000 +1000 d0 other \"c\" cat=\"\"\n"
                     "flow other id=16 cat=\"\" #0 -> #1\n",
                     "events=3 span=1000..8000\n"
                     "issue orphan_flow_end warning x1\n"));
}

TEST(Golden, AsyncBeginEndAndInstantsWithIdAndId2) {
  EXPECT_EQ(dumpOf(R"([
    {"ph":"b","cat":"net","name":"req","id":"0x1","pid":1,"tid":1,"ts":1},
    {"ph":"n","cat":"net","name":"step","id":"0x1","pid":1,"tid":1,"ts":2},
    {"ph":"e","cat":"net","name":"req","id":"0x1","pid":1,"tid":1,"ts":4},
    {"ph":"b","cat":"net","name":"loc","id2":{"local":"0x2"},"pid":1,"tid":1,"ts":5,"args":{"x":1}},
    {"ph":"e","cat":"net","name":"loc","id2":{"local":"0x2"},"pid":1,"tid":1,"ts":6},
    {"ph":"e","cat":"net","name":"stray","id":"9","pid":1,"tid":1,"ts":7}
  ])"),
            withMeta("process 1 name=\"\" sort=1\n"
                     "  track async tid=0 name=\"loc\" sort=9223372036854775807 slices=1 rows=1 nested=1\n"
                     "    #0 5000 +1000 d0 async \"loc\" cat=\"net\" args={\"x\":1}\n"
                     "  track async tid=0 name=\"req\" sort=9223372036854775807 slices=1 rows=1 nested=1\n"
                     "    #1 1000 +3000 d0 async \"req\" cat=\"net\"\n"
                     "instant 2000 scope=t \"step\" cat=\"net\" track=1\n",
                     "events=6 span=1000..7000\n"
                     "issue unmatched_async_end warning x1\n"));
}

TEST(Golden, MetadataNamesLabelsAndSortIndices) {
  EXPECT_EQ(dumpOf(R"({"traceEvents":[
    {"ph":"M","name":"process_name","pid":2,"tid":0,"args":{"name":"python"}},
    {"ph":"M","name":"process_labels","pid":2,"args":{"labels":"rank 0"}},
    {"ph":"M","name":"process_sort_index","pid":2,"args":{"sort_index":-5}},
    {"ph":"M","name":"thread_name","pid":2,"tid":3,"args":{"name":"worker"}},
    {"ph":"M","name":"thread_sort_index","pid":2,"tid":3,"args":{"sort_index":1}},
    {"ph":"M","name":"thread_name","pid":2,"tid":4,"args":{"name":"main"}},
    {"ph":"M","name":"process_uptime_seconds","pid":2,"args":{"uptime":5}},
    {"ph":"M","name":"thread_name","pid":2,"tid":9},
    {"ph":"X","name":"w","pid":2,"tid":4,"ts":1,"dur":1},
    {"ph":"X","name":"m","pid":1,"tid":1,"ts":1,"dur":1}
  ]})"),
            withMeta("process 2 name=\"python\" labels=\"rank 0\" sort=-5\n"
                     "  track cpu tid=3 name=\"worker\" sort=1 slices=0 rows=0 nested=0\n"
                     "  track cpu tid=4 name=\"main\" sort=4 slices=1 rows=1 nested=1\n"
                     "    #0 1000 +1000 d0 other \"w\" cat=\"\"\n"
                     "process 1 name=\"\" sort=1\n"
                     "  track cpu tid=1 name=\"\" sort=1 slices=1 rows=1 nested=1\n"
                     "    #1 1000 +1000 d0 other \"m\" cat=\"\"\n",
                     "events=10 span=1000..2000\n"
                     "issue unknown_metadata info x1\n"
                     "issue metadata_missing_value info x1\n"));
}

// Many writers stamp metadata "ts": 0 (or leave it out); it names a process
// or thread and is no time: the span is the events' (here 5000..7000 ns), not
// 0..7000, which would print a span of days for a Kineto-like trace.
TEST(Golden, MetadataTimestampsAreNoPartOfTheSpan) {
  EXPECT_EQ(dumpOf(R"({"traceEvents":[
    {"ph":"M","name":"process_name","ts":0,"pid":1,"tid":0,"args":{"name":"python"}},
    {"ph":"X","name":"a","pid":1,"tid":1,"ts":5,"dur":1},
    {"ph":"M","name":"thread_name","ts":999999,"pid":1,"tid":1,"args":{"name":"main"}},
    {"ph":"X","name":"b","pid":1,"tid":1,"ts":6,"dur":1}
  ]})"),
            withMeta("process 1 name=\"python\" sort=1\n"
                     "  track cpu tid=1 name=\"main\" sort=1 slices=2 rows=1 nested=1\n"
                     "    #0 5000 +1000 d0 other \"a\" cat=\"\"\n"
                     "    #1 6000 +1000 d0 other \"b\" cat=\"\"\n",
                     "events=4 span=5000..7000\n"));
}

TEST(Golden, AnomaliesAreCountedNeverSilentlyDropped) {
  EXPECT_EQ(dumpOf(R"([
    {"ph":"P","name":"sample","pid":1,"tid":1,"ts":1},
    {"ph":"O","name":"obj","pid":1,"tid":1,"ts":2,"id":"1"},
    {"ph":"P","name":"sample","pid":1,"tid":1,"ts":3},
    {"ph":"Xx","name":"long","pid":1,"tid":1,"ts":3},
    {"name":"nophase","pid":1,"tid":1,"ts":4},
    {"ph":"X","name":"nots","pid":1,"tid":1,"dur":1},
    {"ph":"X","name":"badts","pid":1,"tid":1,"ts":"soon","dur":1},
    {"ph":"X","name":"strts","pid":1,"tid":1,"ts":"5","dur":1},
    {"ph":"X","name":"nodur","pid":1,"tid":1,"ts":10},
    {"ph":"X","name":"negdur","pid":1,"tid":1,"ts":20,"dur":-3},
    {"ph":"X","name":"nopid","ts":30,"dur":1},
    {"ph":"X","name":"argsarr","pid":1,"tid":1,"ts":40,"dur":1,"args":[1,2]},
    17,
    "text",
    {"ph":"s","name":"noid","pid":1,"tid":1,"ts":41},
    {"ph":"b","name":"noid","pid":1,"tid":1,"ts":42}
  ])"),
            withMeta("process 0 name=\"\" sort=0\n"
                     "  track cpu tid=0 name=\"\" sort=0 slices=1 rows=1 nested=1\n"
                     "    #0 30000 +1000 d0 other \"nopid\" cat=\"\"\n"
                     "process 1 name=\"\" sort=1\n"
                     "  track cpu tid=1 name=\"\" sort=1 slices=4 rows=1 nested=1\n"
                     "    #1 5000 +1000 d0 other \"strts\" cat=\"\"\n"
                     "    #2 10000 +0 d0 other \"nodur\" cat=\"\"\n"
                     "    #3 20000 +0 d0 other \"negdur\" cat=\"\"\n"
                     "    #4 40000 +1000 d0 other \"argsarr\" cat=\"\"\n",
                     "events=16 span=1000..42000\n"
                     "issue missing_phase warning x1\n"
                     "issue missing_timestamp warning x1\n"
                     "issue invalid_timestamp warning x1\n"
                     "issue time_as_string info x1\n"
                     "issue missing_duration warning x1\n"
                     "issue negative_duration warning x1\n"
                     "issue missing_pid info x1\n"
                     "issue missing_tid info x1\n"
                     "issue args_not_object info x1\n"
                     "issue event_not_object warning x2\n"
                     "issue flow_missing_id warning x1\n"
                     "issue async_missing_id warning x1\n"
                     "issue unknown_phase warning x4\n"));
}

TEST(Golden, UnknownPhaseDescriptionListsEachPhase) {
  auto r = gapscope::io::parseChromeTrace(R"([{"ph":"P","ts":1},{"ph":"O","ts":2},{"ph":"P","ts":3}])");
  ASSERT_TRUE(r.trace);
  const auto* issue = r.trace->issues.find("unknown_phase");
  ASSERT_NE(issue, nullptr);
  EXPECT_EQ(issue->count, 3u);
  EXPECT_EQ(issue->firstOffset, 1u);
  EXPECT_NE(issue->description.find("'O' x1"), std::string::npos) << issue->description;
  EXPECT_NE(issue->description.find("'P' x2"), std::string::npos) << issue->description;
}

TEST(Golden, StringAndNegativeIdsAsKinetoWritesThem) {
  EXPECT_EQ(dumpOf(R"J({"traceEvents":[
    {"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":1,"dur":5},
    {"ph":"X","cat":"Kernel","name":"k","pid":0,"tid":"stream 7","ts":2,"dur":1,"args":{"correlation":5}},
    {"ph":"X","cat":"cpu_op","name":"neg","pid":3,"tid":-12,"ts":3,"dur":1},
    {"ph":"i","s":"g","name":"Record Window End","pid":"","tid":"","ts":7}
  ]})J"),
            withMeta("process 0 name=\"\" sort=0 gpu\n"
                     "  track gpu tid=\"stream 7\" name=\"\" sort=9223372036854775807 device=0 stream=7 slices=1 "
                     "rows=1 nested=1\n"
                     "    #0 2000 +1000 d0 kernel \"k\" cat=\"Kernel\" corr=5 args={\"correlation\":5}\n"
                     "process 3 name=\"\" sort=3\n"
                     "  track cpu tid=-12 name=\"\" sort=-12 slices=1 rows=1 nested=1\n"
                     "    #1 3000 +1000 d0 cpu_op \"neg\" cat=\"cpu_op\"\n"
                     "process \"Spans\" name=\"\" sort=9223372036854775807\n"
                     "  track cpu tid=\"PyTorch Profiler\" name=\"\" sort=9223372036854775807 slices=1 rows=1 "
                     "nested=1\n"
                     "    #2 1000 +5000 d0 other \"PyTorch Profiler (0)\" cat=\"Trace\"\n"
                     "instant 7000 scope=g \"Record Window End\" cat=\"\"\n",
                     "events=4 span=1000..7000\n"));
}

TEST(Golden, TopLevelKeysBeforeAndAfterTheEvents) {
  EXPECT_EQ(dumpOf(R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "numSms": 132,
      "computeMajor": 9, "computeMinor": 0}], "distributedInfo": {"rank": 3},
    "baseTimeNanoseconds": 1790857026000000000, "displayTimeUnit": "ns",
    "traceEvents": [{"ph":"X","name":"a","pid":1,"tid":1,"ts":4472700411709.539,"dur":0.001}],
    "traceName": "/tmp/x.json", "trace_id": "0BC3", "extra": [{"a": 1}, {"b": 2}]})"),
            "process 1 name=\"\" sort=1\n"
            "  track cpu tid=1 name=\"\" sort=1 slices=1 rows=1 nested=1\n"
            "    #0 4472700411709539 +1 d0 other \"a\" cat=\"\"\n"
            "metadata displayTimeUnit=\"ns\" baseTimeNanoseconds=1790857026000000000 devices=1 "
            "distributedInfo={\"rank\": 3}\n"
            "device id=0 name=\"NVIDIA H200\" sms=132 cc=9.0\n"
            "key schemaVersion=1\n"
            "key traceName=\"/tmp/x.json\"\n"
            "key trace_id=\"0BC3\"\n"
            "key extra=[{\"a\": 1}, {\"b\": 2}]\n"
            "events=1 span=4472700411709539..4472700411709540\n");
}

TEST(Golden, EmptyEventsArray) {
  EXPECT_EQ(dumpOf(R"({"traceEvents": [ ], "k": 1})"), std::string(kNoMetadata) + "key k=1\nevents=0 span=0..0\n");
  EXPECT_EQ(dumpOf("[]"), std::string(kNoMetadata) + "events=0 span=0..0\n");
}

TEST(Golden, KernelLaunchConfigurationFromArgs) {
  EXPECT_EQ(
      dumpOf(R"([{"ph":"X","cat":"kernel","name":"nvjet","pid":0,"tid":7,"ts":4472705146261.405,"dur":7.008,
    "args":{"External id":2567,"queued":0,"device":0,"context":1,"stream":7,"correlation":2246,
      "registers per thread":168,"shared memory":213268,"blocks per SM":0.969697,"warps per SM":11.636364,
      "grid":[2,64,1],"block":[384,1,1],"est. achieved occupancy %":12}}])",
             {}, gapscope::testing::withoutArgs()),
      withMeta("process 0 name=\"\" sort=0 gpu\n"
               "  track gpu tid=7 name=\"\" sort=7 device=0 stream=7 slices=1 rows=1 nested=1\n"
               "    #0 4472705146261405 +7008 d0 kernel \"nvjet\" cat=\"kernel\" corr=2246 kernel{grid=2,64,1 "
               "block=384,1,1 regs=168 smem=213268 blocksPerSm=0.969697 warpsPerSm=11.6364 occ=12 device=0 "
               "stream=7}\n",
               "events=1 span=4472705146261405..4472705146268413\n"));
}

TEST(Golden, InputDimsBecomeInternedShapes) {
  auto r = gapscope::io::parseChromeTrace(R"([
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":1,"args":{"Input Dims": [[64, 64], [64, 64]]}},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":3,"dur":1,"args":{"Input Dims": [[64, 64], [64, 64]]}},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":5,"dur":1,"args":{"Input Dims": [[1, 2], []]}}])");
  ASSERT_TRUE(r.trace);
  const auto& s = r.trace->slices;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(r.trace->str(s[0].shapes), "[[64, 64], [64, 64]]");
  EXPECT_EQ(s[0].shapes, s[1].shapes);
  EXPECT_EQ(r.trace->str(s[2].shapes), "[[1, 2], []]");
}

TEST(Golden, EscapedNamesAreUnescaped) {
  auto r = gapscope::io::parseChromeTrace(
      R"([{"ph":"X","name":"a\"b\\c\u00e9","cat":"c\/d","pid":1,"tid":1,"ts":1,"dur":1}])");
  ASSERT_TRUE(r.trace);
  ASSERT_EQ(r.trace->slices.size(), 1u);
  EXPECT_EQ(r.trace->str(r.trace->slices[0].name), "a\"b\\c\xC3\xA9");
  EXPECT_EQ(r.trace->str(r.trace->slices[0].category), "c/d");
}

// Names without escapes are taken from the text as it lies: spaces after
// the closing quote, an empty name and a name ending in an escaped
// backslash each read as written.
TEST(Golden, PlainNamesReadAsWritten) {
  auto r = gapscope::io::parseChromeTrace(
      "[{\"ph\":\"X\",\"name\":\"aten::mm\" \n ,\"cat\":\"\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n"
      " {\"ph\":\"X\",\"name\":\"tail\\\\\" ,\"cat\":\"cpu_op\"\t,\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}]");
  ASSERT_TRUE(r.trace);
  ASSERT_EQ(r.trace->slices.size(), 2u);
  EXPECT_EQ(r.trace->str(r.trace->slices[0].name), "aten::mm");
  EXPECT_EQ(r.trace->str(r.trace->slices[0].category), "");
  EXPECT_EQ(r.trace->str(r.trace->slices[1].name), "tail\\");
  EXPECT_EQ(r.trace->str(r.trace->slices[1].category), "cpu_op");
}

// Slices are grouped by track in finish(); every interleaving of tracks in
// the file must come out as each track's events in time order.
TEST(Golden, TracksKeepTheirOrderWhateverTheInterleaving) {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    std::string json = "[";
    std::map<int, std::vector<std::int64_t>> expected;
    unsigned x = seed;
    for (int i = 0; i < 3000; ++i) {
      x = x * 1103515245u + 12345u;
      // pid 2 gets most events; it sorts between pid 1 and pid 3.
      int pid = (x >> 16) % 10 < 7 ? 2 : ((x >> 16) % 10 < 9 ? 1 : 3);
      if (seed == 4) pid = i < 2000 ? 2 : (i % 2 ? 1 : 3);  // the big track first in the file
      std::int64_t ts = 10 * i;
      expected[pid].push_back(ts * 1000);
      if (i) json += ",";
      json += R"({"ph":"X","name":"e","pid":)" + std::to_string(pid) + R"(,"tid":1,"ts":)" + std::to_string(ts) +
              R"(,"dur":1})";
    }
    json += "]";
    auto r = gapscope::io::parseChromeTrace(json, gapscope::testing::chunked(4096));
    ASSERT_TRUE(r.ok()) << r.error;
    const auto& t = *r.trace;
    ASSERT_EQ(t.tracks.size(), 3u);
    for (const auto& tr : t.tracks) {
      std::vector<std::int64_t> starts;
      for (const auto* s = t.trackBegin(tr); s != t.trackEnd(tr); ++s) starts.push_back(s->start);
      EXPECT_EQ(starts, expected[static_cast<int>(tr.pid.num)]) << "seed " << seed << " pid " << tr.pid.num;
    }
  }
}

// Kineto's launch flows (ac2g) in the three shapes every Kineto trace has
// (docs/import-issues.md) are producer quirks; a finish on a kernel with no
// start anywhere stays a problem.
TEST(Golden, KinetoFlowQuirksAreCountedApartFromProblems) {
  const std::string dump = dumpOf(R"({"traceEvents":[
    {"ph":"X","cat":"cuda_runtime","name":"cudaStreamIsCapturing","pid":10,"tid":10,"ts":10,"dur":2,"args":{"correlation":1}},
    {"ph":"f","id":1,"pid":10,"tid":10,"ts":10,"cat":"ac2g","name":"ac2g","bp":"e"},
    {"ph":"X","cat":"cuda_runtime","name":"cudaDeviceSynchronize","pid":10,"tid":10,"ts":20,"dur":5,"args":{"correlation":2}},
    {"ph":"s","id":2,"pid":10,"tid":10,"ts":20,"cat":"ac2g","name":"ac2g"},
    {"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":10,"tid":10,"ts":30,"dur":5,"args":{"correlation":3}},
    {"ph":"s","id":3,"pid":10,"tid":10,"ts":30,"cat":"ac2g","name":"ac2g"},
    {"ph":"X","cat":"kernel","name":"g1","pid":0,"tid":7,"ts":40,"dur":2,"args":{"correlation":3}},
    {"ph":"f","id":3,"pid":0,"tid":7,"ts":40,"cat":"ac2g","name":"ac2g","bp":"e"},
    {"ph":"X","cat":"kernel","name":"g2","pid":0,"tid":7,"ts":43,"dur":2,"args":{"correlation":3}},
    {"ph":"f","id":3,"pid":0,"tid":7,"ts":43,"cat":"ac2g","name":"ac2g","bp":"e"},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":10,"tid":10,"ts":50,"dur":5,"args":{"correlation":4}},
    {"ph":"s","id":4,"pid":10,"tid":10,"ts":50,"cat":"ac2g","name":"ac2g"},
    {"ph":"f","id":5,"pid":0,"tid":7,"ts":44,"cat":"ac2g","name":"ac2g","bp":"e"}
  ]})");
  EXPECT_NE(dump.find("flow launch id=3 cat=\"ac2g\""), std::string::npos) << dump;
  EXPECT_NE(dump.find("issue flow_end_on_non_launch_call info x1 producer-quirk\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("issue sync_flow_without_end info x1 producer-quirk\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("issue launch_flow_extra_end info x1 producer-quirk\n"), std::string::npos) << dump;
  // A launch whose GPU work is missing, and a finish with no start on a kernel.
  EXPECT_NE(dump.find("issue launch_without_gpu_work warning x1\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("issue orphan_flow_end warning x1\n"), std::string::npos) << dump;
}

// chrome://tracing keys threads by text: "10" and 10 are one thread. Kineto
// 2021 wrote runtime calls with tid "25738" and their flows with 25738.
TEST(Golden, NumericStringIdsAreTheNumber) {
  EXPECT_EQ(dumpOf(R"({"traceEvents":[
    {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":10,"tid":"10","ts":100,"dur":5,"args":{"correlation":42}},
    {"ph":"s","id":42,"pid":10,"tid":10,"ts":100,"cat":"async","name":"launch"},
    {"ph":"X","cat":"Kernel","name":"k1","pid":0,"tid":"stream 7","ts":110,"dur":3,"args":{"correlation":42}},
    {"ph":"f","id":42,"pid":0,"tid":"stream 7","ts":110,"cat":"async","name":"launch","bp":"e"},
    {"ph":"X","cat":"cpu_op","name":"padded","pid":10,"tid":"007","ts":120,"dur":1}
  ]})"),
            withMeta("process 0 name=\"\" sort=0 gpu\n"
                     "  track gpu tid=\"stream 7\" name=\"\" sort=9223372036854775807 device=0 stream=7 slices=1 "
                     "rows=1 nested=1\n"
                     "    #0 110000 +3000 d0 kernel \"k1\" cat=\"Kernel\" corr=42 args={\"correlation\":42}\n"
                     "process 10 name=\"\" sort=10\n"
                     "  track cpu tid=10 name=\"\" sort=10 slices=1 rows=1 nested=1\n"
                     "    #1 100000 +5000 d0 cuda_runtime \"cudaLaunchKernel\" cat=\"Runtime\" corr=42 "
                     "args={\"correlation\":42}\n"
                     "  track cpu tid=\"007\" name=\"\" sort=9223372036854775807 slices=1 rows=1 nested=1\n"
                     "    #2 120000 +1000 d0 cpu_op \"padded\" cat=\"cpu_op\"\n"
                     "flow launch id=42 cat=\"async\" #1 -> #0\n",
                     "events=5 span=100000..121000\n"));
}
