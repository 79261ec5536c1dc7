// The stand-in on its own, linked without Tether's libraries: its link proves that it uses
// nothing of them (app/CMakeLists.txt). `tether demo-service --protocol v2` runs the same code.
#include "demo/standin_v2/standin.h"

int main(int argc, char **argv) {
    return tether::standin_v2::runStandin(argc, argv);
}
