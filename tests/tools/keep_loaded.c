/* Preloaded into facet's own programs when the tests run them under AddressSanitizer
 * (tests/viewer_test.cpp): dlclose keeps every library loaded. At exit GLFW and Mesa unload
 * their drivers, and LeakSanitizer, checking after that, can no longer name the module a
 * driver's memory came from ("<unknown module>"), so no suppression could match it and leak
 * detection had to be off for the viewer. With the drivers still loaded, their allocations are
 * named and suppressed (tests/lsan_suppressions.txt), and a leak in facet's code is reported. */
int dlclose(void* handle) {
    (void)handle;
    return 0;
}
