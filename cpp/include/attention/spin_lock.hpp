// A lock held for a short piece of work (a cache lookup, packing a block once): a waiting thread
// spins, yielding. Not std::mutex, whose failure path (std::system_error and its message) brings
// printf into the page's wasm. BasicLockable: use it with std::lock_guard.
#pragma once

#include <atomic>
#include <thread>

namespace attention {

class SpinLock {
public:
    void lock() {
        while (held_.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
    }
    void unlock() { held_.clear(std::memory_order_release); }

private:
    std::atomic_flag held_ = ATOMIC_FLAG_INIT;
};

}  // namespace attention
