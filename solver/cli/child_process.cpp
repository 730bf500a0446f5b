// golightly-cli: a child golightly-cli process (child_process.hpp).
#include "child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "golightly/errors.hpp"

extern char** environ;

namespace golightly::cli {

std::vector<std::string> current_environment(const std::vector<std::string>& drop) {
    std::vector<std::string> out;
    for (char** e = environ; *e; ++e) {
        const std::string s(*e);
        bool keep = true;
        for (const std::string& name : drop)
            if (s.rfind(name + "=", 0) == 0) keep = false;
        if (keep) out.push_back(s);
    }
    return out;
}

int run_child_process(const std::vector<std::string>& args, const std::vector<std::string>& env,
                      const std::string& log, const std::string& what) {
    std::vector<std::string> a = args, e = env;  // posix_spawn takes char* const[]
    std::vector<char*> argv, envp;
    for (auto& s : a) argv.push_back(s.data());
    argv.push_back(nullptr);
    for (auto& s : e) envp.push_back(s.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw RunError("cannot start " + what);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw RunError("lost " + what);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace golightly::cli
