// GoLightly CPU engine: a persistent team of worker threads for the row sweeps.
// Private to the solver library.
//
// Why not OpenMP: libgomp's default wait policy spins in barriers and between parallel
// regions. On a machine where other processes compete for the cores (an IDE, a build,
// several runs), a spinning thread takes the core its partner needs, and a 2-thread
// step ran at half the speed of a passive wait. C++20 atomic waits and std::barrier spin
// only briefly and then sleep in the kernel (futex), which costs a few microseconds per
// synchronization: negligible against a step of a grid worth threading (engine_cpu.cpp
// threads only grids of >= 2^18 cells).
#pragma once

#include <atomic>
#include <barrier>
#include <cstdint>
#include <thread>
#include <vector>

namespace golightly::cpu {

class Team {
public:
    /// A team of n members: the calling thread (member 0) and n-1 workers.
    explicit Team(int n) : n_(n < 1 ? 1 : n), barrier_(n < 1 ? 1 : n) {
        for (int t = 1; t < n_; ++t) workers_.emplace_back([this, t] { work(t); });
    }
    ~Team() {
        stop_.store(true, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
        generation_.notify_all();
        for (auto& w : workers_) w.join();
    }
    Team(const Team&) = delete;
    Team& operator=(const Team&) = delete;

    int size() const { return n_; }

    /// Runs job(member) on every member, the caller being member 0; returns when all have
    /// finished. job may call barrier() (every member must reach it equally often).
    template <class F>
    void run(F& job) {
        if (n_ == 1) { job(0); return; }
        ctx_ = &job;
        fn_ = [](void* c, int t) { (*static_cast<F*>(c))(t); };
        pending_.store(n_ - 1, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
        generation_.notify_all();
        job(0);
        for (int p = pending_.load(std::memory_order_acquire); p != 0; p = pending_.load(std::memory_order_acquire))
            pending_.wait(p, std::memory_order_acquire);
    }

    /// All members wait here until every member has arrived.
    void barrier() { barrier_.arrive_and_wait(); }

    /// Static split of [0, n) among the members: member t gets [begin, end).
    static void split(long long n, int t, int members, long long& begin, long long& end) {
        begin = n * t / members;
        end = n * (t + 1) / members;
    }

private:
    void work(int t) {
        std::uint64_t seen = 0;
        for (;;) {
            generation_.wait(seen, std::memory_order_acquire);
            seen = generation_.load(std::memory_order_acquire);
            if (stop_.load(std::memory_order_relaxed)) return;
            fn_(ctx_, t);
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
        }
    }

    int n_;
    std::barrier<> barrier_;
    std::vector<std::thread> workers_;
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<int> pending_{0};
    std::atomic<bool> stop_{false};
    void (*fn_)(void*, int) = nullptr;
    void* ctx_ = nullptr;
};

}  // namespace golightly::cpu
