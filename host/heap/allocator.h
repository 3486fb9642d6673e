// Symmetric-heap offset allocator.
//
// Every PE replays the same collective sequence of shmem_malloc / shmem_align /
// shmem_realloc / shmem_free calls and must obtain the same offsets, so that an
// offset names the same object on every PE. The allocator therefore depends only
// on its inputs: ordered maps keyed by offset, first fit by lowest offset, no
// hashing, pointers, clocks or threads. It hands out offsets only and never
// touches memory. It is not thread-safe; the caller serialises calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

namespace gio {

class heap_allocator {
public:
    // Manages [begin, end). min_align must be a power of two (GIO uses 256).
    // Returned offsets are multiples of max(min_align, align) (shifted by the
    // bias, see alloc); block sizes are rounded up to a multiple of min_align.
    heap_allocator(uint64_t begin, uint64_t end, uint64_t min_align);

    // First fit by lowest offset. nullopt when size == 0, align is not a power
    // of two, bias >= align, rounding would overflow, or nothing fits (state
    // then unchanged). `bias` is the heap base's address modulo align: the
    // returned offset makes base + offset, not the offset, a multiple of
    // align, so alignments larger than the base's own still hold (every PE
    // must pass the same bias to get the same offset).
    std::optional<uint64_t> alloc(uint64_t size, uint64_t align, uint64_t bias = 0);

    // false (and nothing changes) if offset is not the start of a live block.
    bool free(uint64_t offset);

    // Resizes the block at offset. In place when it shrinks (tail is freed) or
    // when the free range directly after it is large enough: returns offset,
    // *moved = false. Otherwise allocates a new block (first fit, min_align
    // alignment) and returns it with *moved = true; the OLD BLOCK IS STILL LIVE
    // and untouched: the caller copies min(old, new) bytes, then calls
    // free(offset). nullopt (nothing changes, *moved = false) if offset is not
    // a block, new_size == 0 (the caller treats that as free), rounding would
    // overflow, or nothing fits. moved may be nullptr.
    std::optional<uint64_t> realloc(uint64_t offset, uint64_t new_size, bool* moved);

    bool is_block(uint64_t offset) const;
    uint64_t block_size(uint64_t offset) const;  // rounded size; 0 if not a block
    uint64_t bytes_free() const { return free_bytes_; }
    uint64_t largest_free() const;
    uint64_t bytes_used() const { return used_bytes_; }
    size_t live_blocks() const { return used_.size(); }

private:
    void insert_free(uint64_t offset, uint64_t size);  // coalesces neighbours

    uint64_t min_align_;
    std::map<uint64_t, uint64_t> free_;  // offset -> size, maximal (coalesced) runs
    std::map<uint64_t, uint64_t> used_;  // offset -> rounded size
    uint64_t free_bytes_ = 0;
    uint64_t used_bytes_ = 0;
};

}  // namespace gio
