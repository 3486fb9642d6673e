// The configuration table: size parsing, defaults, and clear errors for bad values.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "host/config.h"
#include "runtime/status.h"

using gio::config_parse_size;

TEST(Config, ParsesSizesWithSuffixes) {
  uint64_t v = 0;
  EXPECT_TRUE(config_parse_size("4096", &v));
  EXPECT_EQ(v, 4096u);
  EXPECT_TRUE(config_parse_size("64K", &v));
  EXPECT_EQ(v, 64u << 10);
  EXPECT_TRUE(config_parse_size("64M", &v));
  EXPECT_EQ(v, 64ull << 20);
  EXPECT_TRUE(config_parse_size("2g", &v));
  EXPECT_EQ(v, 2ull << 30);
  EXPECT_TRUE(config_parse_size("1GB", &v));
  EXPECT_EQ(v, 1ull << 30);
}

// OpenSHMEM's SHMEM_SYMMETRIC_SIZE and the GPU draft's SHMEM_DEVICE_SYMMETRIC_SIZE take a decimal
// prefix; the size is at least the product's ceiling.
TEST(Config, ParsesDecimalSizes) {
  uint64_t v = 0;
  EXPECT_TRUE(config_parse_size("1.5G", &v));
  EXPECT_EQ(v, 3ull << 29);
  EXPECT_TRUE(config_parse_size("0.5k", &v));
  EXPECT_EQ(v, 512u);
  EXPECT_TRUE(config_parse_size("2.0001", &v));  // 2.0001 bytes: at least that many
  EXPECT_EQ(v, 3u);
  EXPECT_TRUE(config_parse_size("20.25m", &v));
  EXPECT_EQ(v, 20ull * (1 << 20) + (1 << 18));
  EXPECT_FALSE(config_parse_size("1.G", &v));
  EXPECT_FALSE(config_parse_size("1.5.5M", &v));
  EXPECT_FALSE(config_parse_size("16777216.5T", &v));
}

TEST(Config, RejectsGarbageAndOverflow) {
  uint64_t v = 7;
  EXPECT_FALSE(config_parse_size("", &v));
  EXPECT_FALSE(config_parse_size("abc", &v));
  EXPECT_FALSE(config_parse_size("12Q", &v));
  EXPECT_FALSE(config_parse_size("-5", &v));
  EXPECT_FALSE(config_parse_size("99999999999999999999", &v));
  EXPECT_FALSE(config_parse_size("20000000000T", &v));
  EXPECT_EQ(v, 7u);
}

TEST(Config, DefaultsComeFromTheTable) {
  unsetenv("GIO_TIMEOUT_MS");
  unsetenv("GIO_SYMMETRIC_SIZE");
  unsetenv("GIO_TRANSPORT");
  gio::config c = gio::config_load();
  EXPECT_EQ(c.GIO_TIMEOUT_MS, 60000u);
  EXPECT_EQ(c.GIO_SYMMETRIC_SIZE, 0u);  // "auto": the platform decides
  EXPECT_EQ(c.GIO_TRANSPORT, "auto");
  EXPECT_EQ(c.GIO_NUM_CONTEXTS, 64u);
}

TEST(Config, EnvironmentOverrides) {
  setenv("GIO_SYMMETRIC_SIZE", "128M", 1);
  setenv("GIO_TIMEOUT_MS", "250", 1);
  gio::config c = gio::config_load();
  EXPECT_EQ(c.GIO_SYMMETRIC_SIZE, 128ull << 20);
  EXPECT_EQ(c.GIO_TIMEOUT_MS, 250u);
  unsetenv("GIO_SYMMETRIC_SIZE");
  unsetenv("GIO_TIMEOUT_MS");
}

TEST(ConfigDeathTest, BadValueNamesTheKey) {
  EXPECT_EXIT(
      {
        setenv("GIO_TIMEOUT_MS", "soon", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_TIMEOUT_MS=\"soon\" is not a number");
  EXPECT_EXIT(
      {
        setenv("GIO_TRANSPORT", "carrier-pigeon", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_TRANSPORT=\"carrier-pigeon\" is not one of auto, p2p, gda, proxy");
  EXPECT_EXIT(
      {
        setenv("GIO_NUM_CONTEXTS", "0", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_NUM_CONTEXTS=0 is outside");
  EXPECT_EXIT(
      {
        setenv("GIO_GDA_NIC", "fpga", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_GDA_NIC=\"fpga\" is not one of auto, softnic");
}

// The proxy transport's settings: each bad value stops init naming the key and value.
TEST(ConfigDeathTest, ProxyKeysAreChecked) {
  EXPECT_EXIT(
      {
        setenv("GIO_PROXY_SLOTS", "100", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_PROXY_SLOTS=100 is not a power of two in \\[16, 32768\\]");
  EXPECT_EXIT(
      {
        setenv("GIO_PROXY_BOUNCE_BYTES", "48", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_PROXY_BOUNCE_BYTES=48 is neither 0 nor a power of two");
  EXPECT_EXIT(
      {
        setenv("GIO_PROXY_STAGING", "sometimes", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_PROXY_STAGING=\"sometimes\" is not one of auto, always");
  EXPECT_EXIT(
      {
        setenv("GIO_PROXY_CHUNK", "1K", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_PROXY_CHUNK=1024 is outside \\[4K, 64M\\]");
}

// A stream collective's grid (GIO_COLL_WORK_GROUPS) is at most 65535 work-groups wide on every
// platform: a wider one is refused at init, naming the key and its bounds.
TEST(ConfigDeathTest, CollWorkGroupsIsBounded) {
  EXPECT_EXIT(
      {
        setenv("GIO_COLL_WORK_GROUPS", "70000", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE),
      "shmem_init.*GIO_COLL_WORK_GROUPS=70000 is outside \\[1, 65535\\] \\(or auto\\)");
}

// The stream reductions' algorithm (GIO_COLL_REDUCE) is one of three words; another is refused at
// init, naming the key, the value and the choices. Its scratch defaults to auto (0).
TEST(ConfigDeathTest, CollReduceIsChecked) {
  unsetenv("GIO_COLL_REDUCE");
  unsetenv("GIO_COLL_REDUCE_SCRATCH");
  const gio::config c = gio::config_load();
  EXPECT_EQ(c.GIO_COLL_REDUCE, "auto");
  EXPECT_EQ(c.GIO_COLL_REDUCE_SCRATCH, 0u);
  EXPECT_EXIT(
      {
        setenv("GIO_COLL_REDUCE", "fast", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "shmem_init.*GIO_COLL_REDUCE=\"fast\" is not one of auto, pull, push");
}

// GIO_QUEUE_MEM was removed (device-memory queues could be served by neither the softnic nor the
// untested ConnectX path): it is no longer printed by gio-info, and setting it warns instead of
// passing unnoticed.
TEST(Config, RemovedKeyWarnsAndIsNotListed) {
  setenv("GIO_QUEUE_MEM", "device", 1);
  ::testing::internal::CaptureStderr();
  gio::config_load();
  const std::string err = ::testing::internal::GetCapturedStderr();
  unsetenv("GIO_QUEUE_MEM");
  EXPECT_NE(err.find("GIO_QUEUE_MEM=\"device\" is no longer a setting"), std::string::npos) << err;
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  ASSERT_NE(f, nullptr);
  gio::config_print(gio::config_load(), f);
  fclose(f);
  const std::string listed(buf, len);
  free(buf);
  EXPECT_EQ(listed.find("GIO_QUEUE_MEM"), std::string::npos);
  EXPECT_NE(listed.find("GIO_GDA_NIC"), std::string::npos);
}

// Every row of the table is consistent: its own default passes its own check, and a ranged key's
// bounds are ordered.
TEST(Config, EveryDefaultPassesItsOwnRow) {
  for (const gio::config_key& k : gio::config_keys()) {
    EXPECT_EQ(gio::config_check(k, k.def), "") << k.name;
    if (k.type == gio::config_type::SIZE || k.type == gio::config_type::COUNT) EXPECT_LE(k.min, k.max) << k.name;
    if (k.type == gio::config_type::ENUM) EXPECT_NE(std::string(k.choices).find(k.def), std::string::npos) << k.name;
  }
}

// A misspelled setting used to leave the default in force without a word: it is reported, with
// the key it most likely meant, once per process however often the environment is read.
TEST(Config, UnknownVariableWarnsOnceNamingTheClosestKey) {
  setenv("GIO_TIMOUT_MS", "5", 1);
  ::testing::internal::CaptureStderr();
  const gio::config c = gio::config_load();
  gio::config_load();
  const std::string err = ::testing::internal::GetCapturedStderr();
  unsetenv("GIO_TIMOUT_MS");
  EXPECT_EQ(c.GIO_TIMEOUT_MS, 60000u);  // still ignored: only the warning is new
  const std::string want = "GIO_TIMOUT_MS=\"5\" is not a GIO setting and is ignored (did you mean GIO_TIMEOUT_MS?)";
  const size_t at = err.find(want);
  EXPECT_NE(at, std::string::npos) << err;
  EXPECT_EQ(err.find(want, at + 1), std::string::npos) << "warned twice:\n" << err;
}

// Variables GIO's own scripts read (tests/run.sh, driver-patches/build.sh) are not settings, and
// not typos either.
TEST(Config, ToolVariablesAreNotReported) {
  setenv("GIO_DRIVER_REQUIRED", "1", 1);
  ::testing::internal::CaptureStderr();
  gio::config_load();
  const std::string err = ::testing::internal::GetCapturedStderr();
  unsetenv("GIO_DRIVER_REQUIRED");
  EXPECT_EQ(err.find("GIO_DRIVER_REQUIRED"), std::string::npos) << err;
}

// A heap below the minimum is reported with the value as given and the minimum (it was reported
// after rounding, "=256"); a negative number is called negative, with the allowed range (it was
// "not a number").
TEST(ConfigDeathTest, RangesNameTheKeyTheValueAndTheBounds) {
  EXPECT_EXIT(
      {
        setenv("GIO_SYMMETRIC_SIZE", "1", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE),
      "shmem_init.*environment variable GIO_SYMMETRIC_SIZE=1 is below the minimum, [0-9]+ \\([0-9]+K\\) \\(or auto\\)");
  EXPECT_EXIT(
      {
        setenv("GIO_TIMEOUT_MS", "-5", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE),
      "GIO_TIMEOUT_MS=\"-5\" is negative; allowed: \\[0, 31536000000\\]");
  EXPECT_EXIT(
      {
        setenv("GIO_DEBUG", "7", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_DEBUG=7 is outside \\[0, 2\\]");
  EXPECT_EXIT(
      {
        setenv("GIO_NODE_PER_PE", "maybe", 1);
        gio::config_load();
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_NODE_PER_PE=\"maybe\" is not a boolean");
}

// gio-info's listing comes from the same rows: each key with its allowed values.
TEST(Config, PrintShowsAllowedValues) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  ASSERT_NE(f, nullptr);
  gio::config_print(gio::config_load(), f);
  fclose(f);
  const std::string listed(buf, len);
  free(buf);
  EXPECT_NE(listed.find("GIO_TRANSPORT            = auto       (default auto; one of auto, p2p, gda, proxy)"),
            std::string::npos) << listed;
  EXPECT_NE(listed.find("GIO_PROXY_SLOTS          = 256        (default 256; a power of two in [16, 32768])"),
            std::string::npos) << listed;
  EXPECT_NE(listed.find("(default 16K; a power of two in [64, 1G] or 0)"), std::string::npos) << listed;
}
