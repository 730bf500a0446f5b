// golightly-cli: placeholder until the run driver lands.
#include <cstdio>
int main() { std::puts("golightly-cli: not implemented yet"); return 1; }
