import type { QueryCategory } from '../query-category.js';

/**
 * A hand-labelled list written after the categoriser's cues were tuned on `labelledQueries`, and never used to tune
 * them: its agreement is the honest estimate of how the categoriser does on queries it was not fitted to (the
 * README states it). Labels were set before it was run. Do not tune the cues on it; write a new list instead.
 */
export const heldOutQueries: readonly (readonly [query: string, category: QueryCategory])[] = [
  // coding
  ['How do I read environment variables in a Spring Boot application?', 'coding'],
  ['What is the difference between a process and a thread?', 'coding'],
  ['How do I undo the last commit I pushed?', 'coding'],
  ['Why is my CSS grid not filling the whole page?', 'coding'],
  ['How can I profile a slow Python function?', 'coding'],
  ['What is a good folder structure for a Vue project?', 'coding'],
  ['How do I prevent SQL injection in PHP?', 'coding'],
  ['How do I write a unit test for a function that calls the network?', 'coding'],
  // math
  ['What is the probability that two people in a room of 23 share a birthday?', 'math'],
  ['Solve for x: 2^x = 32', 'math'],
  ['What is the median of 3, 9, 4, 7 and 12?', 'math'],
  ['How do I convert 72 degrees Fahrenheit to Celsius?', 'math'],
  ['What is the Pythagorean theorem used for?', 'math'],
  ['How many diagonals does a hexagon have?', 'math'],
  ['Is 0.999 repeating equal to 1?', 'math'],
  ['What is the least common multiple of 12 and 18?', 'math'],
  // writing
  ["Write a toast for my parents' 40th anniversary", 'writing'],
  ['Draft a message to my landlord about a broken heater', 'writing'],
  ['Rewrite my CV summary to highlight leadership', 'writing'],
  ["Write a children's poem about brushing teeth", 'writing'],
  ['Help me write a eulogy for my grandfather', 'writing'],
  ['Suggest three names and a tagline for a podcast about history', 'writing'],
  ['Write a product review of a pair of running shoes I loved', 'writing'],
  ['Make my resignation letter sound kinder', 'writing'],
  // analysis
  ['What are the pros and cons of homeschooling?', 'analysis'],
  ['Why did the Soviet Union collapse?', 'analysis'],
  ['Should our company move its servers to the cloud?', 'analysis'],
  ['How will AI change the job market for accountants?', 'analysis'],
  ['Evaluate the decision to raise prices during a recession', 'analysis'],
  ['What are the main causes of inflation?', 'analysis'],
  ['Is it better to pay off my mortgage early or invest?', 'analysis'],
  ['Compare the leadership styles of two famous CEOs', 'analysis'],
  // general
  ['What is the boiling point of water at high altitude?', 'general'],
  ['How do I get rid of fruit flies in the kitchen?', 'general'],
  ['What are some easy houseplants for beginners?', 'general'],
  ['Who was the first woman to win a Nobel Prize?', 'general'],
  ['How should I store fresh herbs?', 'general'],
  ['What is the best time of year to visit Japan?', 'general'],
  ['How do I tie a bowline knot?', 'general'],
  ['Recommend a board game for four adults', 'general'],
];
