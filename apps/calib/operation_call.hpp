// An operation of the library (calib/operation.hpp) called from the command line: its arguments parsed
// and every option checked (the operation's, the command's, the reading options) before any file is
// read, then its models and inputs read. The runner of every operation (command_operation.cpp) and the
// report's (command_report.cpp, which draws its own page) share it.
#pragma once

#include "args.hpp"
#include "run_output.hpp"
#include "shared_options.hpp"

#include <calib/operation.hpp>

#include <memory>
#include <string>
#include <vector>

namespace calib::cli {

struct OperationCall {
    OperationCall(const Operation& operation, const std::vector<std::string>& arguments);

    const Operation& operation;
    std::vector<std::string> model_files;  // the files after --input: one, or several models'
    Args args;                             // every option given (check_output reads the file options)
    InputOptions input;                    // the family and the reading options (input.path: the last file read)
    CommandSetup command;
    std::unique_ptr<ConfiguredOperation> configured;

    // Reads the models (each named by its file, as the operation's kind: OperationInfo::reads; predictions
    // alone as its reading() says, which sets `input`'s family and reading options) and the
    // inputs the operation asks for, recording the
    // files and the simplex deviation in `run`; `paths`, when given, receives each model's files (its
    // input and labels files).
    std::vector<ModelData> read_models(RunRecord& run, std::vector<std::vector<std::string>>* paths = nullptr);
    DataSets read_inputs(RunRecord& run);
};

}  // namespace calib::cli
