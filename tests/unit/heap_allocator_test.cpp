#include "host/heap/allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>
#include <initializer_list>
#include <map>
#include <optional>
#include <algorithm>

using gio::heap_allocator;

namespace {

constexpr uint64_t kUnit = 256;

// Shadow model: one bool per min_align unit; predicts first fit independently
// of the allocator (scans maximal free runs in address order).
struct shadow {
    uint64_t begin;
    std::vector<bool> used;
    std::map<uint64_t, uint64_t> blocks;  // offset -> rounded size

    shadow(uint64_t b, uint64_t e) : begin(b), used((e - b) / kUnit, false) {}
    uint64_t units(uint64_t bytes) const { return (bytes + kUnit - 1) / kUnit; }
    uint64_t idx(uint64_t off) const { return (off - begin) / kUnit; }

    std::optional<uint64_t> first_fit(uint64_t size, uint64_t align) const {
        align = std::max(align, kUnit);
        const uint64_t n = units(size), au = align / kUnit;
        size_t i = 0;
        while (i < used.size()) {
            if (used[i]) { ++i; continue; }
            size_t j = i;
            while (j < used.size() && !used[j]) ++j;
            // begin is aligned to everything used below, so unit alignment == byte alignment
            size_t a = (i + au - 1) / au * au;
            if (a + n <= j) return begin + a * kUnit;
            i = j;
        }
        return std::nullopt;
    }
    bool range_free(uint64_t off, uint64_t bytes) const {
        for (uint64_t k = idx(off); k < idx(off) + units(bytes); ++k)
            if (k >= used.size() || used[k]) return false;
        return true;
    }
    void mark(uint64_t off, uint64_t bytes, bool v) {
        for (uint64_t k = idx(off); k < idx(off) + units(bytes); ++k) {
            ASSERT_NE(used[k], v) << "overlap/double free at unit " << k;
            used[k] = v;
        }
    }
    uint64_t free_bytes() const {
        uint64_t n = 0;
        for (bool b : used) n += !b;
        return n * kUnit;
    }
    uint64_t largest_run() const {
        uint64_t best = 0, cur = 0;
        for (bool b : used) { cur = b ? 0 : cur + 1; best = std::max(best, cur); }
        return best * kUnit;
    }
};

// Portable RNG: mt19937_64 output is fixed by the standard; distributions aren't.
struct rng {
    std::mt19937_64 g{0x6010'5eedULL};
    uint64_t below(uint64_t n) { return g() % n; }
};

uint64_t rand_size(rng& r) {
    switch (r.below(4)) {
        case 0: return 1 + r.below(64);
        case 1: return 1 + r.below(4096);
        case 2: return 1 + r.below(32768);
        default: return 1 + r.below(131072);
    }
}
uint64_t rand_align(rng& r) {
    static const uint64_t a[] = {1, 8, 64, 256, 512, 4096, 65536};
    return a[r.below(7)];
}

// Runs the randomized sequence, checking against the shadow after every op.
// Returns the trace of results so two instances can be compared.
std::vector<uint64_t> run_random(heap_allocator& h, uint64_t begin, uint64_t end, int ops) {
    shadow s(begin, end);
    rng r;
    std::vector<uint64_t> trace, live;
    int allocs = 0, fails = 0, inplace = 0, moves = 0;
    for (int i = 0; i < ops; ++i) {
        const uint64_t op = r.below(100);
        if (op < 45 || live.empty()) {
            const uint64_t sz = rand_size(r), al = rand_align(r);
            auto want = s.first_fit(sz, al);
            auto got = h.alloc(sz, al);
            EXPECT_EQ(got, want) << "op " << i;
            if (!got) { ++fails; trace.push_back(~0ULL); continue; }
            ++allocs;
            EXPECT_EQ(*got % std::max(al, kUnit), 0u);
            EXPECT_GE(*got, begin);
            EXPECT_LE(*got + s.units(sz) * kUnit, end);
            EXPECT_TRUE(s.range_free(*got, sz));
            s.mark(*got, sz, true);
            s.blocks[*got] = s.units(sz) * kUnit;
            live.push_back(*got);
            trace.push_back(*got);
        } else if (op < 80) {
            const size_t k = r.below(live.size());
            const uint64_t off = live[k];
            EXPECT_TRUE(h.free(off));
            s.mark(off, s.blocks[off], false);
            s.blocks.erase(off);
            live.erase(live.begin() + k);
            trace.push_back(off);
        } else if (op < 95) {
            const size_t k = r.below(live.size());
            const uint64_t off = live[k], old = s.blocks[off], nsz = rand_size(r);
            const uint64_t nb = s.units(nsz) * kUnit;
            // Predict: in place if shrinking or the bytes after the block are free.
            std::optional<uint64_t> want;
            bool want_moved = false;
            if (nb <= old || s.range_free(off + old, nb - old)) {
                want = off;
            } else {
                want = s.first_fit(nsz, kUnit);
                want_moved = want.has_value();
            }
            bool moved = true;
            auto got = h.realloc(off, nsz, &moved);
            EXPECT_EQ(got, want) << "op " << i;
            EXPECT_EQ(moved, want_moved) << "op " << i;
            if (!got) { ++fails; trace.push_back(~1ULL); continue; }
            if (!moved) {
                ++inplace;
                if (nb < old) s.mark(off + nb, old - nb, false);
                if (nb > old) s.mark(off + old, nb - old, true);
                s.blocks[off] = nb;
            } else {
                ++moves;
                EXPECT_TRUE(h.is_block(off)) << "old block must stay live until freed";
                EXPECT_TRUE(s.range_free(*got, nsz));
                s.mark(*got, nb, true);
                EXPECT_TRUE(h.free(off));
                s.mark(off, old, false);
                s.blocks.erase(off);
                s.blocks[*got] = nb;
                live[k] = *got;
            }
            EXPECT_EQ(h.block_size(*got), nb);
            trace.push_back(*got);
        } else {
            // Bad free: an interior offset of a live block, or a free unit.
            const uint64_t bad = live[r.below(live.size())] + kUnit / 2;
            EXPECT_FALSE(h.free(bad));
            EXPECT_FALSE(h.is_block(bad));
            trace.push_back(bad);
        }
        EXPECT_EQ(h.live_blocks(), live.size());
        EXPECT_EQ(h.bytes_free(), s.free_bytes());
        EXPECT_EQ(h.bytes_used() + h.bytes_free(), end - begin);
        EXPECT_EQ(h.largest_free(), s.largest_run());
        if (::testing::Test::HasFailure()) break;
    }
    // The sequence must actually exercise every path.
    EXPECT_GT(allocs, 1000);
    EXPECT_GT(fails, 10);
    EXPECT_GT(inplace, 100);
    EXPECT_GT(moves, 100);
    for (uint64_t off : live) EXPECT_TRUE(h.free(off));
    EXPECT_EQ(h.live_blocks(), 0u);
    EXPECT_EQ(h.bytes_used(), 0u);
    EXPECT_EQ(h.largest_free(), end - begin);  // fully coalesced
    return trace;
}

constexpr uint64_t kBegin = 1ULL << 20, kEnd = kBegin + (2ULL << 20);

}  // namespace

TEST(HeapAllocator, RandomizedAgainstShadowModel) {
    heap_allocator h(kBegin, kEnd, kUnit);
    run_random(h, kBegin, kEnd, 10000);
}

TEST(HeapAllocator, TwoInstancesSameSequenceSameOffsets) {
    heap_allocator a(kBegin, kEnd, kUnit);
    heap_allocator b(kBegin, kEnd, kUnit);
    auto ta = run_random(a, kBegin, kEnd, 10000);
    auto tb = run_random(b, kBegin, kEnd, 10000);
    ASSERT_EQ(ta.size(), 10000u);
    EXPECT_EQ(ta, tb);
}

TEST(HeapAllocator, AlignmentAndRounding) {
    heap_allocator h(0, 1 << 20, kUnit);
    auto a = h.alloc(1, 1);
    ASSERT_TRUE(a);
    EXPECT_EQ(*a, 0u);
    EXPECT_EQ(h.block_size(*a), 256u);
    auto b = h.alloc(100, 4096);  // leaves [256, 4096) as a free range
    ASSERT_TRUE(b);
    EXPECT_EQ(*b, 4096u);
    EXPECT_EQ(h.block_size(*b), 256u);
    auto c = h.alloc(3000, 8);  // front padding was kept free: first fit finds it
    ASSERT_TRUE(c);
    EXPECT_EQ(*c, 256u);
    EXPECT_EQ(h.block_size(*c), 3072u);
    EXPECT_FALSE(h.alloc(16, 3));  // not a power of two
    EXPECT_FALSE(h.alloc(16, 0));
    EXPECT_FALSE(h.alloc(0, 256));
    EXPECT_EQ(h.live_blocks(), 3u);
}

TEST(HeapAllocator, UnalignedBoundsCoalesceBack) {
    heap_allocator h(100, 100000, kUnit);
    auto a = h.alloc(10, 1);
    ASSERT_TRUE(a);
    EXPECT_EQ(*a, 256u);
    auto b = h.alloc(10, 1);
    ASSERT_TRUE(b);
    EXPECT_EQ(*b, 512u);
    EXPECT_TRUE(h.free(*a));
    EXPECT_TRUE(h.free(*b));
    EXPECT_EQ(h.largest_free(), 100000u - 100u);
    EXPECT_EQ(h.bytes_free(), 100000u - 100u);
}

TEST(HeapAllocator, CoalescingInAnyFreeOrder) {
    heap_allocator h(0, 64 * kUnit, kUnit);
    std::vector<uint64_t> offs;
    for (int i = 0; i < 64; ++i) {
        auto o = h.alloc(kUnit, kUnit);
        ASSERT_TRUE(o);
        offs.push_back(*o);
    }
    EXPECT_EQ(h.bytes_free(), 0u);
    EXPECT_EQ(h.largest_free(), 0u);
    // Free evens, then odds: each odd free must merge with both neighbours.
    for (int i = 0; i < 64; i += 2) EXPECT_TRUE(h.free(offs[i]));
    EXPECT_EQ(h.largest_free(), kUnit);
    for (int i = 1; i < 64; i += 2) EXPECT_TRUE(h.free(offs[i]));
    EXPECT_EQ(h.largest_free(), 64 * kUnit);
    EXPECT_EQ(h.bytes_free(), 64 * kUnit);
    EXPECT_EQ(h.live_blocks(), 0u);
}

TEST(HeapAllocator, ExhaustionLeavesStateUnchanged) {
    heap_allocator h(0, 10 * kUnit, kUnit);
    auto a = h.alloc(4 * kUnit, 1);
    auto b = h.alloc(kUnit, 1);
    auto c = h.alloc(4 * kUnit, 1);
    ASSERT_TRUE(a && b && c);
    ASSERT_TRUE(h.free(*b));  // free: [1024,1280) and [2304,2560)
    const auto snap = [&] {
        return std::vector<uint64_t>{h.bytes_free(), h.bytes_used(), h.largest_free(),
                                     h.live_blocks(), h.block_size(*a), h.block_size(*c)};
    };
    const auto before = snap();
    EXPECT_FALSE(h.alloc(2 * kUnit, 1));  // 2 units free in total, not contiguous
    EXPECT_FALSE(h.alloc(kUnit, 4096));  // no aligned unit free
    EXPECT_EQ(snap(), before);
    bool moved = true;
    EXPECT_FALSE(h.realloc(*a, 6 * kUnit, &moved));
    EXPECT_FALSE(moved);
    EXPECT_EQ(snap(), before);
    // The free units are still usable afterwards.
    EXPECT_EQ(h.alloc(kUnit, 1), std::optional<uint64_t>(4 * kUnit));
    EXPECT_EQ(h.alloc(kUnit, 1), std::optional<uint64_t>(9 * kUnit));
    EXPECT_FALSE(h.alloc(1, 1));
}

TEST(HeapAllocator, BadFree) {
    heap_allocator h(0, 1 << 16, kUnit);
    auto a = h.alloc(1000, 1);
    ASSERT_TRUE(a);
    EXPECT_FALSE(h.free(*a + kUnit));     // interior of a block
    EXPECT_FALSE(h.free(1 << 15));        // free space
    EXPECT_FALSE(h.free(1 << 20));        // outside the heap
    EXPECT_EQ(h.live_blocks(), 1u);
    EXPECT_TRUE(h.free(*a));
    EXPECT_FALSE(h.free(*a));             // double free
    EXPECT_EQ(h.largest_free(), 1u << 16);
    bool moved = true;
    EXPECT_FALSE(h.realloc(*a, 10, &moved));
    EXPECT_FALSE(moved);
    EXPECT_FALSE(h.is_block(*a));
    EXPECT_EQ(h.block_size(*a), 0u);
}

TEST(HeapAllocator, ReallocInPlaceAndMoved) {
    heap_allocator h(0, 1 << 16, kUnit);
    auto a = h.alloc(kUnit, 1);
    auto b = h.alloc(kUnit, 1);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(h.free(*b));
    bool moved = true;
    // Grow into the following free range.
    EXPECT_EQ(h.realloc(*a, 4 * kUnit, &moved), a);
    EXPECT_FALSE(moved);
    EXPECT_EQ(h.block_size(*a), 4 * kUnit);
    // Same rounded size: no change.
    EXPECT_EQ(h.realloc(*a, 4 * kUnit - 7, &moved), a);
    EXPECT_FALSE(moved);
    // Shrink: tail returns to the free list and coalesces with what follows.
    EXPECT_EQ(h.realloc(*a, 10, &moved), a);
    EXPECT_FALSE(moved);
    EXPECT_EQ(h.block_size(*a), kUnit);
    EXPECT_EQ(h.bytes_used(), kUnit);
    EXPECT_EQ(h.largest_free(), (1u << 16) - kUnit);
    // Block a neighbour in, then grow: must move, old block stays live.
    auto c = h.alloc(kUnit, 1);
    ASSERT_EQ(c, std::optional<uint64_t>(kUnit));
    auto n = h.realloc(*a, 3 * kUnit, &moved);
    ASSERT_TRUE(n);
    EXPECT_TRUE(moved);
    EXPECT_EQ(*n, 2 * kUnit);
    EXPECT_TRUE(h.is_block(*a));
    EXPECT_EQ(h.block_size(*a), kUnit);
    EXPECT_EQ(h.block_size(*n), 3 * kUnit);
    EXPECT_EQ(h.live_blocks(), 3u);
    EXPECT_TRUE(h.free(*a));  // caller frees the old block after copying
    EXPECT_EQ(h.live_blocks(), 2u);
    // nullptr for moved is accepted.
    EXPECT_EQ(h.realloc(*n, kUnit, nullptr), n);
    EXPECT_FALSE(h.realloc(*n, 0, &moved));
    EXPECT_FALSE(moved);
    EXPECT_EQ(h.block_size(*n), kUnit);
}

TEST(HeapAllocator, HugeSizesFailWithoutWrap) {
    heap_allocator h(1 << 20, 2 << 20, kUnit);
    const auto before_free = h.bytes_free();
    for (uint64_t sz : std::initializer_list<uint64_t>{UINT64_MAX, UINT64_MAX - 100, UINT64_MAX - 255, 1ULL << 63, (2ULL << 20) + 1}) {
        EXPECT_FALSE(h.alloc(sz, 1)) << sz;
        EXPECT_FALSE(h.alloc(sz, 1ULL << 63)) << sz;
    }
    EXPECT_FALSE(h.alloc(1, 1ULL << 63));  // rounding the start up overflows
    auto a = h.alloc(1, 1);
    ASSERT_TRUE(a);
    bool moved = true;
    for (uint64_t sz : {UINT64_MAX, UINT64_MAX - 100, UINT64_MAX - 255}) {
        EXPECT_FALSE(h.realloc(*a, sz, &moved)) << sz;
        EXPECT_FALSE(moved);
    }
    EXPECT_EQ(h.block_size(*a), kUnit);
    EXPECT_TRUE(h.free(*a));
    EXPECT_EQ(h.bytes_free(), before_free);
    EXPECT_EQ(h.live_blocks(), 0u);
}

TEST(HeapAllocator, HeapReachingTopOfAddressSpace) {
    heap_allocator h(0, UINT64_MAX, kUnit);
    EXPECT_FALSE(h.alloc(UINT64_MAX - 100, 1));
    auto a = h.alloc(1ULL << 63, 1ULL << 63);
    ASSERT_EQ(a, std::optional<uint64_t>(0));
    auto b = h.alloc((1ULL << 63) - kUnit, 1ULL << 63);
    ASSERT_EQ(b, std::optional<uint64_t>(1ULL << 63));
    EXPECT_EQ(h.bytes_free(), kUnit - 1);  // [2^64-256, 2^64-1)
    EXPECT_FALSE(h.alloc(1, 1ULL << 63));  // aligning 2^64-256 up would wrap to 0
    EXPECT_FALSE(h.alloc(1, 1));           // 255 bytes left, block needs 256
    bool moved = true;
    EXPECT_FALSE(h.realloc(*b, (1ULL << 63), &moved));
    EXPECT_FALSE(moved);
    EXPECT_TRUE(h.free(*a));
    EXPECT_TRUE(h.free(*b));
    EXPECT_EQ(h.largest_free(), UINT64_MAX);
}

// Alignments larger than the heap base's own: the caller passes the base's offset modulo the
// alignment (`bias`), and the block's address (base + offset), not its offset, is aligned.
TEST(HeapAllocator, AlignmentRelativeToABias) {
    const uint64_t M = 1ull << 20;
    heap_allocator h(64 * 1024, 64 * M, kUnit);
    auto a = h.alloc(100, 4 * M, 1 * M);  // base = 1 MiB mod 4 MiB: offsets 3M, 7M, ... are aligned
    ASSERT_TRUE(a);
    EXPECT_EQ(*a, 3 * M);
    auto b = h.alloc(100, 4 * M, 1 * M);
    ASSERT_TRUE(b);
    EXPECT_EQ(*b, 7 * M);
    auto c = h.alloc(5 * M, 32 * M, 0);
    ASSERT_TRUE(c);
    EXPECT_EQ(*c, 32 * M);
    EXPECT_FALSE(h.alloc(100, 64 * M, 0));   // only offset 0 (before `begin`) or 64 MiB (the end)
    EXPECT_FALSE(h.alloc(100, 4 * M, 4 * M));  // a bias must be below the alignment
    auto d = h.alloc(100, 256, 0);  // the padding in front of the aligned blocks stays usable
    ASSERT_TRUE(d);
    EXPECT_EQ(*d, 64 * 1024u);
    EXPECT_EQ(h.live_blocks(), 4u);
}
