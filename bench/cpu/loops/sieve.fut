-- Sieve of Eratosthenes with in-place updates: the number of primes below n.
entry main (n: i64) : i64 =
  let flags = replicate n true
  let flags = flags with [0] = false
  let flags = flags with [1] = false
  let flags =
    loop flags for i < n do
      if i * i < n && flags[i] then
        loop flags = flags for j < (n - 1 - i * i) / i + 1 do
          flags with [i * i + j * i] = false
      else flags
  in loop c = 0i64 for i < n do if flags[i] then c + 1 else c
