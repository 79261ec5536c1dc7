#include "demo/demo.h"
#include <cstdio>
namespace tether::demo {
int runDemoService(int, char **) { std::fprintf(stderr, "demo-service: not built yet\n"); return 2; }
int runDemoMcp(int, char **) { std::fprintf(stderr, "demo-mcp: not built yet\n"); return 2; }
}
