// What the client says about every game it holds, whatever the game.

/** The newcomer's question every two-player game's page answers the same way. */
export const PLAY_THE_COMPUTER = {
  q: { en: 'Can I play the computer?', ru: 'Можно ли играть с компьютером?', uk: 'Чи можна грати з комп’ютером?' },
  a: {
    en: 'Yes. Every two-player game here has a bot at three levels, Easy, Medium and Hard; or send a friend the link to a private table (tables have a chat and voice). No registration is needed: a guest can play at once.',
    ru: 'Да. В каждой игре для двоих здесь есть бот трёх уровней — лёгкий, средний и сложный; а можно отправить другу ссылку на закрытый стол (за столом есть чат и голос). Регистрация не нужна: гость может играть сразу.',
    uk: 'Так. У кожній грі для двох тут є бот трьох рівнів — легкий, середній і складний; а можна надіслати другові посилання на закритий стіл (за столом є чат і голос). Реєстрація не потрібна: гість може грати одразу.',
  },
};
