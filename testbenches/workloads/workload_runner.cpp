#include "workload_runner.hpp"

#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <ctime>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "did_you_mean.hpp"
#include "netlist.hpp"
#include "nvm_controller.h"
#include "kernel_image.h"
#include "lds.h"
#include "simt_core.h"
#include "tm_unit.h"
#include "vit.h"
#include "workload.h"

#ifndef SIMTX_KERNEL_DIR
#error "SIMTX_KERNEL_DIR must name the directory of the built kernels"
#endif
#ifndef SIMTX_INSTALLED_DATA_DIR
#error "SIMTX_INSTALLED_DATA_DIR must name the installed data directory (share/simtx) relative to simtx's"
#endif

namespace simtx {

std::string installed_data_directory()
{
    char executable[4096];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return "";
    std::string path(executable, static_cast<size_t>(length));
    std::string installed = path.substr(0, path.find_last_of('/') + 1) + SIMTX_INSTALLED_DATA_DIR;
    struct stat status;
    return stat(installed.c_str(), &status) == 0 && S_ISDIR(status.st_mode) ? installed : "";
}

namespace {

// One statistic of the platform, split for the host API's queries.
struct statistic_name {
    const simtx_stat_entry *entry;
    std::string instance, name;
    const char *block_type;
};

struct backend_state {
    platform *owner;
    std::vector<statistic_name> statistics;
    std::vector<block_module *> cores;
    std::vector<block_module *> tm_units; // the commit records' keepers
    std::vector<block_module *> nvm_controllers; // the durable image's keepers
    std::vector<block_module *> vits; // the versioned regions' keepers (Version Index Table slices)
    std::vector<block_module *> ldss; // shared memories; under GPU-LocalTM the commit records' keepers too
    double simulate_wall_seconds = 0, simulate_cpu_seconds = 0; // inside simulate(), without the host program
};

bool backend_access(void *context, bool is_write, uint32_t address, void *data, size_t size)
{
    auto *state = static_cast<backend_state *>(context);
    return state->cores[0]->debug_transport(is_write, address, static_cast<uint8_t *>(data), static_cast<unsigned>(size)) == size;
}

bool backend_launch(void *context, simt_launch *launch, char *error, size_t error_size)
{
    auto *state = static_cast<backend_state *>(context);
    const kernel_function *kernel = kernel_image_function_at(launch->image, launch->entry_pc);
    std::string shape = std::to_string(launch->grid[0]) + "x" + std::to_string(launch->grid[1]) + "x" + std::to_string(launch->grid[2]) +
                        " x " + std::to_string(launch->block[0]) + "x" + std::to_string(launch->block[1]) + "x" + std::to_string(launch->block[2]);
    state->owner->begin_launch(kernel ? kernel->name : "?", shape);
    for (block_module *core : state->cores)
        if (!simt_core_start_launch(static_cast<simt_core *>(core->core()), launch, error, error_size)) return false;
    for (block_module *core : state->cores) core->wake_up();
    return true;
}

bool backend_run(void *context, char *error, size_t error_size)
{
    auto *state = static_cast<backend_state *>(context);
    auto wall_start = std::chrono::steady_clock::now();
    std::clock_t cpu_start = std::clock();
    std::string message = state->owner->simulate();
    state->simulate_cpu_seconds += static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    state->simulate_wall_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    if (message.empty()) return true;
    std::snprintf(error, error_size, "%s", message.c_str());
    return false;
}

bool backend_statistic_at(void *context, size_t index, gpu_statistic_entry *out)
{
    auto *state = static_cast<backend_state *>(context);
    if (index >= state->statistics.size()) return false;
    // The cores derive some statistics (ipc, the active_lanes histogram) at
    // finish, which only makes them again from their counters: make them
    // current for a host reading between kernels.
    if (index == 0)
        for (block_module *core : state->cores) core->finish();
    const statistic_name &statistic = state->statistics[index];
    const simtx_stat_entry *entry = statistic.entry;
    out->instance = statistic.instance.c_str();
    out->block_type = statistic.block_type;
    out->name = statistic.name.c_str();
    if (entry->kind == SIMTX_STAT_COUNTER) out->value = static_cast<double>(*static_cast<const uint64_t *>(entry->value));
    else if (entry->kind == SIMTX_STAT_REAL) out->value = *static_cast<const double *>(entry->value);
    else if (entry->kind == SIMTX_STAT_AVERAGE) out->value = simtx_average_mean(static_cast<const simtx_average *>(entry->value));
    else out->value = static_cast<double>(static_cast<const simtx_histogram *>(entry->value)->sum);
    return true;
}

// Every statistic ("instance.name") with its block's type.
std::vector<statistic_name> list_statistics(platform &owner)
{
    std::map<std::string, const char *> block_types;
    for (const auto &module : owner.modules()) block_types[module->basename()] = module->info()->name;
    std::vector<statistic_name> statistics;
    const simtx_observer *observer = owner.observer();
    for (size_t i = 0; i < simtx_observer_stat_count(observer); i++) {
        const simtx_stat_entry *entry = simtx_observer_stat(observer, i);
        const char *dot = std::strchr(entry->name, '.');
        std::string instance = dot ? std::string(entry->name, static_cast<size_t>(dot - entry->name)) : std::string();
        auto type = block_types.find(instance);
        statistics.push_back({entry, instance, dot ? dot + 1 : entry->name, type == block_types.end() ? "" : type->second});
    }
    return statistics;
}

bool backend_tm_record(void *context, bool on)
{
    auto *state = static_cast<backend_state *>(context);
    if (state->tm_units.empty()) return false; // nothing could be recorded: no check to pass
    for (block_module *unit : state->tm_units) tm_unit_set_recording(unit->core(), on);
    return true;
}

// GPU-LocalTM's commit records, kept by the ldss whose policy serves transactions.
bool backend_lds_record(void *context, bool on)
{
    auto *state = static_cast<backend_state *>(context);
    bool any = false;
    for (block_module *lds : state->ldss) any |= lds_set_recording(lds->core(), on);
    return any;
}

// Each lds's CTA instances are spaces of their own: (lds index, instance).
bool backend_lds_history(void *context, void (*visit)(void *, const gpu_lds_commit *, const uint32_t *), void *visit_context)
{
    auto *state = static_cast<backend_state *>(context);
    for (size_t u = 0; u < state->ldss.size(); u++) {
        const lds_commit_record *records;
        const uint32_t *words;
        size_t count = lds_history(state->ldss[u]->core(), &records, &words);
        for (size_t i = 0; i < count; i++) {
            gpu_lds_commit commit{static_cast<uint64_t>(u) << 32 | records[i].instance, records[i].order, records[i].read_count,
                                  records[i].write_count};
            visit(visit_context, &commit, words + records[i].first_word);
        }
        lds_clear_history(state->ldss[u]->core());
    }
    return true;
}

// Every slice holds the same regions: the first answers for all.
bool backend_version_layout(void *context, uint64_t *stride, uint64_t *align, unsigned *versions, uint64_t *free_from)
{
    auto *state = static_cast<backend_state *>(context);
    if (state->vits.empty()) return false;
    vit_layout(state->vits[0]->core(), stride, align, versions, free_from);
    return true;
}

// Zero time, between launches, at every slice; each is woken for the copy
// that makes the region's next version.
bool backend_version_register(void *context, uint32_t base, uint32_t size, uint32_t relocated, char *error, size_t error_size)
{
    auto *state = static_cast<backend_state *>(context);
    for (block_module *slice : state->vits) {
        if (!vit_register(slice->core(), base, size, relocated, error, error_size)) return false;
        slice->wake_up();
    }
    return true;
}

bool backend_tm_history(void *context, void (*visit)(void *, const tm_unit_record *, const uint32_t *), void *visit_context)
{
    auto *state = static_cast<backend_state *>(context);
    for (block_module *unit : state->tm_units) {
        const tm_unit_record *records;
        const uint32_t *words;
        size_t count = tm_unit_history(unit->core(), &records, &words);
        for (size_t i = 0; i < count; i++) visit(visit_context, &records[i], words);
        tm_unit_clear_history(unit->core());
    }
    return true;
}

// The host copies in pieces within one 128-byte block, which one partition
// holds. Under eADR the caches' dirty lines survive a failure too: the image
// is what a zero-time access through the caches reads (the L1s write
// through, the L2 slices overlay their dirty bytes), still without anything
// in flight.
bool backend_durable_access(void *context, bool is_write, uint32_t address, void *data, size_t size)
{
    auto *state = static_cast<backend_state *>(context);
    if (state->owner->persistence_domain() == crash_domain::eadr) return backend_access(context, is_write, address, data, size);
    for (block_module *module : state->nvm_controllers) {
        auto *controller = static_cast<nvm_controller *>(module->core());
        if (!nvm_controller_holds(controller, address)) continue;
        if (is_write) nvm_controller_write_durable(controller, address, data, size);
        else nvm_controller_read_durable(controller, address, data, size);
        return true;
    }
    return false;
}

bool backend_durable_read(void *context, uint32_t address, void *data, size_t size)
{
    return backend_durable_access(context, false, address, data, size);
}

bool backend_durable_write(void *context, uint32_t address, const void *data, size_t size)
{
    return backend_durable_access(context, true, address, const_cast<void *>(data), size);
}

bool backend_crashed(void *context) { return static_cast<backend_state *>(context)->owner->crashed(); }

// The built-in workloads' kernels: installed beside an installed simtx
// (cmake/install.cmake), else those of the build tree simtx was built in.
std::string kernel_directory()
{
    std::string installed = installed_data_directory();
    return installed.empty() ? SIMTX_KERNEL_DIR : installed + "/kernels";
}

// Every option given is one the workload reads (its values are checked when
// its host program reads them, before its first launch).
void check_option_names(const workload_info *info, const workload_request &request)
{
    std::set<std::string> known;
    std::string list;
    std::istringstream names(std::string(info->options) + " " + WORKLOAD_COMMON_OPTIONS);
    for (std::string name; names >> name;) {
        known.insert(name);
        list += (list.empty() ? "" : ", ") + name;
    }
    for (const auto &option : request.options)
        if (!known.count(option.first))
            throw input_error("--set workload." + option.first + "=" + option.second + ": workload '" + request.name +
                              "' has no option '" + option.first + "'" + did_you_mean(option.first, known) + " (options: " + list + ")");
}

// A host program's entry, run on the device: 0 passed, 1 failed, 2 bad
// input; writes its message.
using host_entry = std::function<int(gpu_device *device, std::string &message)>;

// Runs a host program on the elaborated platform through the host API.
std::string run_host_program(platform &owner, const std::string &name, const std::string &label, bool transactional,
                             bool memcheck, const host_entry &entry)
{
    // End elaboration (sockets are bound from then on) before the host
    // program's first memory access.
    if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) sc_core::sc_start(sc_core::SC_ZERO_TIME);
    backend_state state{&owner, list_statistics(owner), {}, {}, {}, {}, {}, 0, 0};
    for (const auto &module : owner.modules())
        if (!std::strcmp(module->info()->name, "simt_core")) state.cores.push_back(module.get());
        else if (!std::strcmp(module->info()->name, "tm_unit")) state.tm_units.push_back(module.get());
        else if (!std::strcmp(module->info()->name, "nvm_controller")) state.nvm_controllers.push_back(module.get());
        else if (!std::strcmp(module->info()->name, "vit")) state.vits.push_back(module.get());
        else if (!std::strcmp(module->info()->name, "lds")) state.ldss.push_back(module.get());
    if (state.cores.empty()) throw input_error(label + ": the netlist has no simt_core block");
    // Transactions run in the tm_units and commit at the commit units;
    // without both a TM kernel would never finish.
    bool has_commit_units = false;
    for (const auto &module : owner.modules()) has_commit_units |= !std::strcmp(module->info()->name, "commit_unit");
    // Or in the ldss, whose policy serves them (GPU-LocalTM).
    bool lds_transactions = false;
    for (block_module *lds : state.ldss) lds_transactions |= lds_set_recording(lds->core(), false);
    if (transactional && !lds_transactions && (!has_commit_units || state.tm_units.empty()))
        throw input_error(label + " uses transactional memory, but the netlist has no commit_unit and tm_unit blocks " +
                          "(platforms/gtx480_kilotm.lua, gtx480_warptm.lua, gtx480_idealtm.lua have them) and no lds serving " +
                          "transactions (platforms/si_localtm.lua)");
    gpu_backend backend{&state, backend_access, backend_launch, backend_run, backend_statistic_at, backend_tm_record, backend_tm_history,
                        state.nvm_controllers.empty() ? nullptr : backend_durable_read,
                        state.nvm_controllers.empty() ? nullptr : backend_durable_write, backend_crashed, backend_version_layout,
                        backend_version_register};
    gpu_device *device = gpu_device_create(&backend);
    gpu_device_set_lds_backend(device, backend_lds_record, backend_lds_history);
    gpu_device_set_memcheck(device, memcheck);
    std::string message;
    int status = entry(device, message);
    // The launch lives in the device: detach it before freeing.
    for (block_module *core : state.cores) simt_core_end_launch(static_cast<simt_core *>(core->core()));
    gpu_device_destroy(device);
    if (status == 2) throw input_error(label + ": " + (message.empty() ? "bad input" : message));
    if (status) return label + ": " + (message.empty() ? "failed" : message);
    // Host figures (not simulated): the time spent simulating kernels,
    // without the host program's setup and oracle.
    std::printf("%s: kernels simulated in %.3f s wall, %.3f s CPU\n", name.c_str(), state.simulate_wall_seconds,
                state.simulate_cpu_seconds);
    return "";
}

// A host plugin (docs/sdk.md): loaded now, so that a missing file or entry
// point is bad input before the netlist is read.
std::function<std::string(platform &)> plugin_host_program(const workload_request &request)
{
    const std::string &path = request.host_plugin;
    // dlopen searches the library path for a name without a slash: a plugin
    // is always the file named.
    std::string file = path.find('/') == std::string::npos ? "./" + path : path;
    void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw input_error("--host " + path + ": cannot load the host plugin: " + dlerror());
    std::shared_ptr<void> library(handle, dlclose);
    auto main = reinterpret_cast<simtx_host_main_function>(dlsym(handle, "simtx_host_main"));
    if (!main)
        throw input_error("--host " + path + ": the host plugin exports no simtx_host_main (declare it "
                          "int simtx_host_main(gpu_device *, int, char **) with C linkage; see simtx/host_api.h)");
    size_t slash = path.find_last_of('/');
    std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    return [library, main, name, request](platform &owner) -> std::string {
        return run_host_program(owner, name, "host program '" + name + "'", false, request.memcheck, [&](gpu_device *device, std::string &message) {
            std::vector<std::string> arguments{request.host_plugin};
            arguments.insert(arguments.end(), request.host_arguments.begin(), request.host_arguments.end());
            std::vector<char *> argv;
            for (std::string &argument : arguments) argv.push_back(&argument[0]);
            argv.push_back(nullptr);
            int status;
            // A C++ plugin's exception ends its run as a failure, reported.
            try {
                status = main(device, static_cast<int>(arguments.size()), argv.data());
            } catch (const std::exception &e) {
                message = std::string("threw an exception: ") + e.what();
                return 1;
            } catch (...) {
                message = "threw an exception (not a std::exception)";
                return 1;
            }
            if (status) message = gpu_last_error(device)[0] ? gpu_last_error(device) : "returned " + std::to_string(status);
            return status == 0 ? 0 : status == 2 ? 2 : 1;
        });
    };
}

} // namespace

std::function<std::string(platform &)> workload_host_program(const workload_request &request)
{
    if (!request.host_plugin.empty()) return plugin_host_program(request);
    const workload_info *info = workload_find(request.name.c_str());
    if (!info) {
        std::string known;
        std::set<std::string> names;
        for (size_t i = 0; i < workload_count(); i++) {
            known += std::string(i ? ", " : "") + workload_at(i)->name;
            names.insert(workload_at(i)->name);
        }
        throw input_error("--workload " + request.name + ": unknown workload '" + request.name + "'" + did_you_mean(request.name, names) +
                          " (known: " + known + ")");
    }
    check_option_names(info, request);
    return [info, request](platform &owner) -> std::string {
        auto entry = [&](gpu_device *device, std::string &message) {
            std::vector<workload_option> options;
            for (const auto &option : request.options) options.push_back({option.first.c_str(), option.second.c_str()});
            char error[2048] = "";
            std::string kernels = kernel_directory();
            workload_context context{options.data(), options.size(), kernels.c_str(), stdout, error, sizeof error, false, request.seed};
            int status = info->main(device, &context);
            message = error;
            return status == 0 ? 0 : context.bad_input ? 2 : 1;
        };
        return run_host_program(owner, request.name, "workload '" + request.name + "'", info->transactional, request.memcheck, entry);
    };
}

} // namespace simtx
