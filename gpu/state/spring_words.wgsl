// Read access to the packed spring words of a network whose CSR may exceed the per-binding limit:
// the words are bound as two ranges of one buffer, `springWordsA` (the first WORDS_CHUNK entries)
// and `springWordsB` (the rest; a dummy when everything fits in A). Host side:
// gpu/runtime/split_binding.ts. The including shader declares the two bindings.
override WORDS_CHUNK: u32;

fn spring_word(e: u32) -> u32 {
  if (e < WORDS_CHUNK) {
    return springWordsA[e];
  }
  return springWordsB[e - WORDS_CHUNK];
}
