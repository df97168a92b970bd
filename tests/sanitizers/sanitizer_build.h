// Which sanitizer a test is compiled under, for the few tests that measure the allocator or
// replace it (ASan and TSan own malloc and operator new). GCC says __SANITIZE_ADDRESS__ /
// __SANITIZE_THREAD__, clang __has_feature(...): both end up as KSCHED_UNDER_ASAN /
// KSCHED_UNDER_TSAN, defined (as 1) or not.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define KSCHED_UNDER_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define KSCHED_UNDER_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(KSCHED_UNDER_ASAN)
#define KSCHED_UNDER_ASAN 1
#endif
#if __has_feature(thread_sanitizer) && !defined(KSCHED_UNDER_TSAN)
#define KSCHED_UNDER_TSAN 1
#endif
#endif
