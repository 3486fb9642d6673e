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
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "GIO_TRANSPORT=\"carrier-pigeon\" is not a known transport");
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
