/*
 * The calling thread's CPU time, ns, from clock_gettime(CLOCK_THREAD_CPUTIME_ID), for the
 * benchmarks' blocking figure (bench/thread-cpu.ts builds and loads it). Node 20 has no
 * process.threadCpuUsage(), and /proc's schedstat counts a running thread's time only at
 * each scheduler tick (4 ms here): a gap of 8 ms read as 4 or 12.
 */
#include <node_api.h>
#include <time.h>

static napi_value thread_cpu_ns(napi_env env, napi_callback_info info) {
  (void)info;
  struct timespec now;
  napi_value result;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) {
    napi_throw_error(env, NULL, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    return NULL;
  }
  napi_create_double(env, (double)now.tv_sec * 1e9 + (double)now.tv_nsec, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  (void)exports;
  napi_create_function(env, "threadCpuNs", NAPI_AUTO_LENGTH, thread_cpu_ns, NULL, &fn);
  return fn;
}
