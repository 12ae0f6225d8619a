/* tests.h: every unit test of the runtime, in the order they run. */
#ifndef TESTS_H
#define TESTS_H

#define ALL_TESTS(X) \
    X(ber_identifiers) \
    X(ber_lengths) \
    X(ber_expect_fast_path) \
    X(ber_overrun) \
    X(ber_overrun_enclosed) \
    X(ber_skip) \
    X(ber_close) \
    X(ber_put_tag_and_length) \
    X(integer_native_boundaries) \
    X(integer_big) \
    X(integer_not_minimal) \
    X(integer_malformed) \
    X(integer_storage_ranges) \
    X(integer_uint64_max) \
    X(integer_fast_paths) \
    X(enumerated) \
    X(explicit_wrapper) \
    X(real_der_encoding) \
    X(real_special_values) \
    X(real_ber_forms) \
    X(real_long_mantissa) \
    X(real_malformed) \
    X(real_extreme_exponents) \
    X(bits_decode) \
    X(bits_constructed) \
    X(bits_encode) \
    X(bits_named) \
    X(bits_equality) \
    X(octet_strings) \
    X(object_identifiers) \
    X(sequence) \
    X(sequence_extensions) \
    X(set) \
    X(set_of_sorting) \
    X(set_of_many) \
    X(sequence_of) \
    X(choice) \
    X(set_untagged_choice_order) \
    X(received_values_reframed) \
    X(received_values_deep) \
    X(received_values_equality) \
    X(der_default_and_boolean) \
    X(arena_fixed_buffer_never_mallocs) \
    X(arena_unaligned_buffer) \
    X(arena_reset_zeroes_only_what_was_used) \
    X(arena_heap_limit) \
    X(arena_reset_reuses_heap) \
    X(arena_huge_requests) \
    X(arena_decoding_limits) \
    X(arena_scopes) \
    X(stream_fragments) \
    X(stream_errors) \
    X(stream_len32_and_stop) \
    X(walk_list) \
    X(walk_from_a_stream) \
    X(owned_values) \
    X(find_type) \
    X(depth_sequence) \
    X(depth_explicit_choice) \
    X(depth_sequence_of) \
    X(depth_constructed_string) \
    X(depth_skipped_extension) \
    X(error_strings) \
    X(error_format) \
    X(names) \
    X(error_path_truncated) \
    X(error_every_truncation) \
    X(error_every_corruption) \
    X(error_encoding) \

#define DECLARE_TEST(name) void test_##name(void);
ALL_TESTS(DECLARE_TEST)

#endif /* TESTS_H */
