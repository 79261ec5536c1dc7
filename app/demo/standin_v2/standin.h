// `tether demo-service --protocol v2`: a stand-in for the opencode 2.x managed service
// (`opencode serve --service`), built from docs/opencode2-protocol.md and nothing of Tether's.
#pragma once

namespace tether::standin_v2 {

// argv[0] is the verb ("demo-service"); the options follow (standinUsage()).
int runStandin(int argc, char **argv);

} // namespace tether::standin_v2
