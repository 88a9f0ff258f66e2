// The reference reading of a chat template: llama.cpp's own common_chat_templates_apply (the
// prompt, the format it picks, its generation prompt) and common_chat_parse (the message it reads
// from a model's output), for one template, tools, messages and any number of outputs.
//
// Input: one JSON object on stdin:
//   { "template": "<jinja source>", "bos_token": "", "eos_token": "",
//     "messages": [OpenAI-style messages], "tools": [OpenAI-style tools],
//     "parallel_tool_calls": true, "reasoning_format": "auto" | "none" | "deepseek",
//     "outputs": ["<model output after the generation prompt>", ...] }
// Output: one JSON object on stdout:
//   { "format": "...", "prompt": "...", "generation_prompt": "...", "has_parser": bool,
//     "parses": [ { "content": "...", "reasoning_content": "...",
//                   "tool_calls": [ { "name": "...", "arguments": "<JSON text>" } ] }
//                 or { "error": "..." }, ... ] }
//   or { "error": "..." } when the template does not load or does not render (exit status 0:
//   that is llama.cpp's answer, not a failure of this program). Exit status 2: the input is not
//   the object above.
#include "chat.h"
#include "common.h"
#include "json.h"
#include "log.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <iterator>
#include <string>

static common_json message_json(const common_chat_msg & msg) {
    common_json calls = common_json::array();
    for (const auto & call : msg.tool_calls) {
        common_json one = common_json::object();
        one["name"]      = call.name;
        one["arguments"] = call.arguments;
        calls.push_back(one);
    }
    common_json out = common_json::object();
    out["content"]           = msg.content;
    out["reasoning_content"] = msg.reasoning_content;
    out["tool_calls"]        = calls;
    return out;
}

static void print(const common_json & value) {
    std::string text = value.dump_safe();
    fwrite(text.data(), 1, text.size(), stdout);
    fputc('\n', stdout);
}

int main() {
    // llama.cpp's log goes to stderr and says nothing below errors: stdout carries only the JSON.
    common_log_set_verbosity_thold(-1);

    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    common_json request = common_json::parse_no_throw(input);
    if (request.is_discarded() || !request.is_object() || !request.contains("template") || !request.at("template").is_string()) {
        fprintf(stderr, "chat-reference: stdin must be one JSON object with a string \"template\"\n");
        return 2;
    }

    common_json response = common_json::object();
    try {
        const std::string source = request.at("template").get<std::string>();
        const std::string bos    = request.value("bos_token", std::string());
        const std::string eos    = request.value("eos_token", std::string());
        auto tmpls = common_chat_templates_init(/* model= */ nullptr, source, bos, eos);

        common_chat_templates_inputs inputs;
        inputs.use_jinja             = true;
        inputs.add_generation_prompt = true;
        inputs.messages = common_chat_msgs_parse_oaicompat(request.contains("messages") ? request.at("messages") : common_json::array());
        if (request.contains("tools") && request.at("tools").size() > 0) {
            inputs.tools = common_chat_tools_parse_oaicompat(request.at("tools"));
        }
        inputs.parallel_tool_calls = request.value("parallel_tool_calls", true);
        inputs.reasoning_format    = common_reasoning_format_from_name(request.value("reasoning_format", std::string("auto")));

        common_chat_params params = common_chat_templates_apply(tmpls.get(), inputs);
        response["format"]            = common_chat_format_name(params.format);
        response["prompt"]            = params.prompt;
        response["generation_prompt"] = params.generation_prompt;
        response["has_parser"]        = !params.parser.empty();

        // The reading the server does for a finished reply (server-schema.cpp, server-task.cpp).
        common_chat_parser_params parser_params(params);
        parser_params.reasoning_format = inputs.reasoning_format;
        if (!params.parser.empty()) {
            parser_params.parser.load(params.parser);
        }

        common_json parses = common_json::array();
        if (request.contains("outputs")) {
            const common_json & outputs = request.at("outputs");
            for (size_t i = 0; i < outputs.size(); i++) {
                try {
                    parses.push_back(message_json(common_chat_parse(outputs.at(i).get<std::string>(), /* is_partial= */ false, parser_params)));
                } catch (const std::exception & e) {
                    common_json failed = common_json::object();
                    failed["error"] = std::string(e.what());
                    parses.push_back(failed);
                }
            }
        }
        response["parses"] = parses;
    } catch (const std::exception & e) {
        response = common_json::object();
        response["error"] = std::string(e.what());
    }
    print(response);
    return 0;
}
