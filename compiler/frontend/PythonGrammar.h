//===- PythonGrammar.h - tree-sitter-python symbols and fields --*- C++ -*-===//
/// \file
/// Internal to the front end. Maps tree-sitter-python's node-type and field
/// names to small enums once per process, so the tree conversion switches on
/// integers instead of comparing strings at every node (this is most of what
/// keeps a 2,000-line file in the low milliseconds). Also offers a cursor
/// walk that lists a node's children in O(children), which ts_node_child(i)
/// does not.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_PYTHONGRAMMAR_H
#define TESSEL_COMPILER_FRONTEND_PYTHONGRAMMAR_H

#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>
#include <vector>

extern "C" const TSLanguage *tree_sitter_python();

namespace tessel::grammar {

// clang-format off
/// The named node types the converter distinguishes; everything else is Other.
#define TESSEL_PY_NODES(X)                              \
  X(module, module)                                     \
  X(block, block)                                       \
  X(expression_statement, expression_statement)         \
  X(assignment, assignment)                             \
  X(augmented_assignment, augmented_assignment)         \
  X(return_statement, return_statement)                 \
  X(pass_statement, pass_statement)                     \
  X(break_statement, break_statement)                   \
  X(continue_statement, continue_statement)             \
  X(if_statement, if_statement)                         \
  X(elif_clause, elif_clause)                           \
  X(else_clause, else_clause)                           \
  X(for_statement, for_statement)                       \
  X(while_statement, while_statement)                   \
  X(with_statement, with_statement)                     \
  X(with_clause, with_clause)                           \
  X(with_item, with_item)                               \
  X(function_definition, function_definition)           \
  X(class_definition, class_definition)                 \
  X(decorated_definition, decorated_definition)         \
  X(decorator, decorator)                               \
  X(assert_statement, assert_statement)                 \
  X(import_statement, import_statement)                 \
  X(import_from_statement, import_from_statement)       \
  X(future_import_statement, future_import_statement)   \
  X(aliased_import, aliased_import)                     \
  X(dotted_name, dotted_name)                           \
  X(relative_import, relative_import)                   \
  X(import_prefix, import_prefix)                       \
  X(wildcard_import, wildcard_import)                   \
  X(raise_statement, raise_statement)                   \
  X(try_statement, try_statement)                       \
  X(except_clause, except_clause)                       \
  X(except_group_clause, except_group_clause)           \
  X(finally_clause, finally_clause)                     \
  X(global_statement, global_statement)                 \
  X(nonlocal_statement, nonlocal_statement)             \
  X(delete_statement, delete_statement)                 \
  X(match_statement, match_statement)                   \
  X(case_clause, case_clause)                           \
  X(type_alias_statement, type_alias_statement)         \
  X(print_statement, print_statement)                   \
  X(exec_statement, exec_statement)                     \
  X(comment, comment)                                   \
  X(line_continuation, line_continuation)               \
  X(identifier, identifier)                             \
  X(integer, integer)                                   \
  X(float_, float)                                      \
  X(true_, true)                                        \
  X(false_, false)                                      \
  X(none, none)                                         \
  X(ellipsis, ellipsis)                                 \
  X(string, string)                                     \
  X(concatenated_string, concatenated_string)           \
  X(string_start, string_start)                         \
  X(string_content, string_content)                     \
  X(string_end, string_end)                             \
  X(interpolation, interpolation)                       \
  X(format_specifier, format_specifier)                 \
  X(format_expression, format_expression)               \
  X(attribute, attribute)                               \
  X(call, call)                                         \
  X(argument_list, argument_list)                       \
  X(keyword_argument, keyword_argument)                 \
  X(list_splat, list_splat)                             \
  X(dictionary_splat, dictionary_splat)                 \
  X(parenthesized_expression, parenthesized_expression) \
  X(subscript, subscript)                               \
  X(slice, slice)                                       \
  X(tuple, tuple)                                       \
  X(list, list)                                         \
  X(set, set)                                           \
  X(dictionary, dictionary)                             \
  X(pair, pair)                                         \
  X(list_comprehension, list_comprehension)             \
  X(set_comprehension, set_comprehension)               \
  X(dictionary_comprehension, dictionary_comprehension) \
  X(generator_expression, generator_expression)         \
  X(for_in_clause, for_in_clause)                       \
  X(if_clause, if_clause)                               \
  X(binary_operator, binary_operator)                   \
  X(unary_operator, unary_operator)                     \
  X(not_operator, not_operator)                         \
  X(boolean_operator, boolean_operator)                 \
  X(comparison_operator, comparison_operator)           \
  X(conditional_expression, conditional_expression)     \
  X(lambda, lambda)                                     \
  X(lambda_parameters, lambda_parameters)               \
  X(named_expression, named_expression)                 \
  X(await, await)                                       \
  X(yield, yield)                                       \
  X(expression_list, expression_list)                   \
  X(pattern_list, pattern_list)                         \
  X(tuple_pattern, tuple_pattern)                       \
  X(list_pattern, list_pattern)                         \
  X(list_splat_pattern, list_splat_pattern)             \
  X(dictionary_splat_pattern, dictionary_splat_pattern) \
  X(parameters, parameters)                             \
  X(default_parameter, default_parameter)               \
  X(typed_parameter, typed_parameter)                   \
  X(typed_default_parameter, typed_default_parameter)   \
  X(keyword_separator, keyword_separator)               \
  X(positional_separator, positional_separator)         \
  X(type, type)                                         \
  X(generic_type, generic_type)                         \
  X(union_type, union_type)                             \
  X(member_type, member_type)                           \
  X(splat_type, splat_type)                             \
  X(constrained_type, constrained_type)                 \
  X(type_parameter, type_parameter)                     \
  X(as_pattern, as_pattern)                             \
  X(as_pattern_target, as_pattern_target)               \
  X(parenthesized_list_splat, parenthesized_list_splat)
// clang-format on

enum class NT : uint8_t {
  Other,
  Error, ///< tree-sitter's ERROR node
#define TESSEL_X(Id, Name) Id,
  TESSEL_PY_NODES(TESSEL_X)
#undef TESSEL_X
};

// clang-format off
#define TESSEL_PY_FIELDS(X)             \
  X(left, left)                         \
  X(right, right)                       \
  X(type, type)                         \
  X(operator_, operator)                \
  X(operators, operators)               \
  X(name, name)                         \
  X(value, value)                       \
  X(body, body)                         \
  X(condition, condition)               \
  X(consequence, consequence)           \
  X(alternative, alternative)           \
  X(parameters, parameters)             \
  X(return_type, return_type)           \
  X(function, function)                 \
  X(arguments, arguments)               \
  X(object, object)                     \
  X(attribute, attribute)               \
  X(subscript, subscript)               \
  X(argument, argument)                 \
  X(key, key)                           \
  X(alias, alias)                       \
  X(module_name, module_name)           \
  X(definition, definition)             \
  X(expression, expression)             \
  X(format_specifier, format_specifier)
// clang-format on

struct Fields {
#define TESSEL_X(Id, Name) TSFieldId Id = 0;
  TESSEL_PY_FIELDS(TESSEL_X)
#undef TESSEL_X
};

/// The node type of N (named types only; anonymous tokens are Other).
NT nodeType(TSNode N);
const Fields &fields();

/// One child with the field it fills (0 for none).
struct Child {
  TSNode Node;
  TSFieldId Field;
  bool named() const { return ts_node_is_named(Node); }
  NT type() const { return nodeType(Node); }
};
/// All children of N, in order, anonymous tokens included.
void children(TSNode N, std::vector<Child> &Out);
inline std::vector<Child> children(TSNode N) {
  std::vector<Child> Out;
  children(N, Out);
  return Out;
}

/// Parses the bytes Range covers of Text (tree-sitter's included ranges, so
/// offsets stay file-absolute) with a parser of its own. A reused parser is
/// not enough: tree-sitter 0.20 gives a different tree for the same text on
/// a parser's first parse and on later ones, even after ts_parser_reset (the
/// edits fuzzer found it: a fresh parse of a file and the server's disagreed).
/// A new parser costs about 0.3 microseconds. Null when tree-sitter refuses.
TSTree *parseIncluded(std::string_view Text, TSRange Range);

} // namespace tessel::grammar

#endif // TESSEL_COMPILER_FRONTEND_PYTHONGRAMMAR_H
