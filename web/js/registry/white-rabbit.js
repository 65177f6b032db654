// White Rabbit in the client, besides its board: the rules retold in ru, uk and en with the
// diagrams they show, what its game page says, and the demonstrations that play the rules
// out. Data only (tests read it in Node); `index.js` pairs it with the board renderer.

export const diagrams = {
  'white-rabbit.deal': { game: 'white-rabbit', variant: 'classic', position: 'k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 6 - -' },
  'white-rabbit.won': { game: 'white-rabbit', variant: 'classic', position: 'k1=4,k2=4,k3=4,k4=4,r2=4,r3=4 k5=6,r1=3,r4=2,r5=5,w=3 5 - r1', last: 'k4~r1' },
};

export const rules = {
  en: [
    { h: 'What it is', p: ['A dice puzzle for one player by Dmytro Polovynka. Twelve dice: five black, five red, one white and a green one that counts your turns down. Make all six dice on the table show the same number while the white die is in your hand.'] },
    { h: 'The deal', p: ['The green counter starts at 6. Three black and three red dice are rolled and laid in a row: the table. The other five (two black, two red and the white) form your hand and are rolled at the start of every turn.'], d: 'white-rabbit.deal' },
    { h: 'Your turn', demos: ['white-rabbit.swap'], p: ['During a turn you may do as many actions as you like:', 'Swap a die from your hand with a die on the table if they are of different colours and their values are next to each other (1 and 2, 4 and 5…; 6 and 1 also count as neighbours, except in the “no wrap” variant). Each die keeps its value and takes the other’s place.', 'Reroll the die that the last swap brought into your hand — once, and only straight after that swap.', 'End the turn: the green counter goes down by one and your hand is rolled again. Ending a turn with the counter at 1 loses the game.', 'You may not immediately swap back the two dice you have just swapped (unless a reroll brought the die back to its old value).'] },
    { h: 'Winning', p: ['You win the moment all six table dice show the same value while the white die is in your hand. Your score is the number on the green counter: the sooner, the better.'], d: 'white-rabbit.won' },
  ],
  ru: [
    { h: 'Что это за игра', p: ['Головоломка с кубиками для одного игрока, придуманная Дмитрием Половинкой. Двенадцать кубиков: пять чёрных, пять красных, один белый и зелёный, который отсчитывает ходы. Нужно, чтобы все шесть кубиков на столе показали одно число, пока белый кубик у вас в руке.'] },
    { h: 'Раздача', p: ['Зелёный счётчик ставится на 6. Три чёрных и три красных кубика бросают и выкладывают в ряд — это стол. Остальные пять (два чёрных, два красных и белый) — ваша рука; их бросают в начале каждого хода.'], d: 'white-rabbit.deal' },
    { h: 'Ваш ход', demos: ['white-rabbit.swap'], p: ['За ход можно сделать сколько угодно действий:', 'Обменять кубик из руки на кубик со стола, если они разного цвета, а их значения соседние (1 и 2, 4 и 5…; 6 и 1 тоже соседи, кроме варианта «без перехода»). Каждый кубик сохраняет своё значение и встаёт на место другого.', 'Перебросить кубик, который последний обмен принёс в руку, — один раз и только сразу после этого обмена.', 'Закончить ход: зелёный счётчик уменьшается на один, а рука бросается заново. Если закончить ход при счётчике 1, партия проиграна.', 'Нельзя сразу же обменять обратно два только что обменянных кубика (разве что переброс вернул кубику прежнее значение).'] },
    { h: 'Победа', p: ['Вы побеждаете, как только все шесть кубиков на столе показывают одно значение, а белый кубик в руке. Ваш счёт — число на зелёном счётчике: чем раньше, тем лучше.'], d: 'white-rabbit.won' },
  ],
  uk: [
    { h: 'Що це за гра', p: ['Головоломка з кубиками для одного гравця, яку вигадав Дмитро Половинка. Дванадцять кубиків: п’ять чорних, п’ять червоних, один білий і зелений, що відлічує ходи. Треба, щоб усі шість кубиків на столі показали одне число, поки білий кубик у вас у руці.'] },
    { h: 'Роздача', p: ['Зелений лічильник ставлять на 6. Три чорні й три червоні кубики кидають і викладають у ряд — це стіл. Решта п’ять (два чорні, два червоні й білий) — ваша рука; їх кидають на початку кожного ходу.'], d: 'white-rabbit.deal' },
    { h: 'Ваш хід', demos: ['white-rabbit.swap'], p: ['За хід можна зробити скільки завгодно дій:', 'Обміняти кубик із руки на кубик зі столу, якщо вони різного кольору, а їхні значення сусідні (1 і 2, 4 і 5…; 6 і 1 теж сусіди, окрім варіанта «без переходу»). Кожен кубик зберігає своє значення й стає на місце іншого.', 'Перекинути кубик, який останній обмін приніс у руку, — один раз і лише одразу після цього обміну.', 'Закінчити хід: зелений лічильник зменшується на один, а руку кидають знову. Якщо закінчити хід за лічильника 1, партію програно.', 'Не можна одразу обміняти назад два щойно обміняні кубики (хіба що перекидання повернуло кубику колишнє значення).'] },
    { h: 'Перемога', p: ['Ви перемагаєте, щойно всі шість кубиків на столі показують одне значення, а білий кубик у руці. Ваш рахунок — число на зеленому лічильнику: що раніше, то краще.'], d: 'white-rabbit.won' },
  ],
};

export const page = {
  origin: {
    en: ['Dmytro Polovynka’s game is new and little known, and unusual: most games for one are played with cards, while this one needs only twelve dice of four colours — no board, not even pen and paper.', 'The white die is the rabbit the game is named after: it can swap with black and red dice alike, which makes it the most useful die — and the win needs it to stay in your hand.'],
    ru: ['Игра Дмитрия Половинки новая и мало известная — и необычная: игры для одного обычно карточные, а здесь нужны только двенадцать кубиков четырёх цветов, ни поля, ни даже бумаги с ручкой.', 'Белый кубик — тот самый кролик, в честь которого названа игра: он меняется и с чёрными, и с красными кубиками, поэтому он самый полезный — а для победы он должен остаться у вас в руке.'],
    uk: ['Гра Дмитра Половинки нова й маловідома — і незвичайна: ігри для одного зазвичай карткові, а тут потрібні лише дванадцять кубиків чотирьох кольорів, ні поля, ні навіть паперу з ручкою.', 'Білий кубик — той самий кролик, на честь якого названо гру: він міняється і з чорними, і з червоними кубиками, тож він найкорисніший — а для перемоги він має лишитися у вас у руці.'],
  },
  faq: [
    {
      q: { en: 'What if no swap is possible?', ru: 'А если обменять нечего?', uk: 'А якщо обміняти нічого?' },
      a: {
        en: 'End the turn: the green counter goes down by one and your hand is rolled again. Ending a turn with the counter at 1 loses the game.',
        ru: 'Закончите ход: зелёный счётчик уменьшится на один, а рука будет брошена заново. Закончить ход при счётчике 1 — значит проиграть.',
        uk: 'Закінчіть хід: зелений лічильник зменшиться на один, а руку буде кинуто знову. Закінчити хід за лічильника 1 — означає програти.',
      },
    },
    {
      q: { en: 'Can I swap the same two dice back?', ru: 'Можно ли сразу поменять те же два кубика обратно?', uk: 'Чи можна одразу поміняти ті самі два кубики назад?' },
      a: {
        en: 'Not straight away, unless a reroll gave the die its old value back. Any other swap in between lifts the ban.',
        ru: 'Не сразу — разве что переброс вернул кубику прежнее значение. Любой другой обмен между ними снимает запрет.',
        uk: 'Не одразу — хіба що перекидання повернуло кубику колишнє значення. Будь-який інший обмін між ними знімає заборону.',
      },
    },
    {
      q: { en: 'Can I play it with the computer?', ru: 'Можно ли играть с компьютером?', uk: 'Чи можна грати з комп’ютером?' },
      a: {
        en: 'It is a puzzle for one: you play against the dice. Every day there is a daily deal, the same for everyone, with a leaderboard.',
        ru: 'Это головоломка для одного: вы играете против кубиков. Каждый день есть расклад дня, одинаковый для всех, с таблицей лучших.',
        uk: 'Це головоломка для одного: ви граєте проти кубиків. Щодня є розклад дня, однаковий для всіх, із таблицею найкращих.',
      },
    },
  ],
  names: {
    ru: ['Белый кролик', 'игра с кубиками на одного', 'головоломка с кубиками'],
    uk: ['Білий кролик', 'гра з кубиками на одного', 'головоломка з кубиками'],
    en: ['White Rabbit', 'solo dice game', 'dice puzzle for one player'],
  },
};

export const demos = {
  'white-rabbit.swap': {
    game: 'white-rabbit',
    variant: 'classic',
    steps: [
      {
        position: 'k1=4,k2=4,k3=2,r1=4,r2=4,r3=4 k4=4,k5=6,r4=3,r5=1,w=5 6 - -',
        caption: {
          en: 'Five table dice show 4; only the black 2 is in the way. A swap trades a hand die for a table die of another colour whose value is one more or one less.',
          ru: 'Пять кубиков на столе показывают 4, мешает только чёрная двойка. Обмен меняет кубик из руки на кубик со стола другого цвета, значение которого на один больше или меньше.',
          uk: 'П’ять кубиків на столі показують 4, заважає лише чорна двійка. Обмін міняє кубик із руки на кубик зі столу іншого кольору, значення якого на один більше чи менше.',
        },
      },
      {
        moves: ['r4~k3'],
        last: 'r4~k3',
        position: 'k1=4,k2=4,r4=3,r1=4,r2=4,r3=4 k3=2,k4=4,k5=6,r5=1,w=5 6 k3~r4 k3',
        caption: {
          en: 'The red 3 from the hand swaps with the black 2: each keeps its value and takes the other’s place.',
          ru: 'Красная тройка из руки меняется с чёрной двойкой: каждый кубик сохраняет значение и встаёт на место другого.',
          uk: 'Червона трійка з руки міняється з чорною двійкою: кожен кубик зберігає значення й стає на місце іншого.',
        },
      },
      {
        moves: ['reroll'],
        position: 'k1=4,k2=4,r4=3,r1=4,r2=4,r3=4 k3=3,k4=4,k5=6,r5=1,w=5 6 k3~r4 -',
        caption: {
          en: 'The black die that has just come into the hand may be rerolled, once and only now. Here the 2 comes up 3.',
          ru: 'Чёрный кубик, который только что пришёл в руку, можно перебросить — один раз и только сейчас. Здесь вместо 2 выпало 3.',
          uk: 'Чорний кубик, що щойно прийшов у руку, можна перекинути — один раз і лише зараз. Тут замість 2 випало 3.',
        },
      },
      {
        moves: ['k4~r4'],
        last: 'k4~r4',
        position: 'k1=4,k2=4,k4=4,r1=4,r2=4,r3=4 k3=3,k5=6,r4=3,r5=1,w=5 6 r4~k4 r4',
        caption: {
          en: 'Now the black 4 from the hand swaps with the red 3. All six table dice show 4 and the white die is in the hand: won, scoring the 6 on the green die.',
          ru: 'Теперь чёрная четвёрка из руки меняется с красной тройкой. Все шесть кубиков на столе показывают 4, а белый в руке — победа, счёт равен 6 на зелёном кубике.',
          uk: 'Тепер чорна четвірка з руки міняється з червоною трійкою. Усі шість кубиків на столі показують 4, а білий у руці — перемога, рахунок дорівнює 6 на зеленому кубику.',
        },
      },
    ],
    try: {
      position: 'k1=4,k2=4,r4=3,r1=4,r2=4,r3=4 k3=3,k4=4,k5=6,r5=1,w=5 6 k3~r4 -',
      legal: ['end', 'k3~r1', 'k3~r2', 'k3~r3', 'k4~r4', 'w~k1', 'w~k2', 'w~r1', 'w~r2', 'w~r3'],
      answers: { 'k4~r4': 'k1=4,k2=4,k4=4,r1=4,r2=4,r3=4 k3=3,k5=6,r4=3,r5=1,w=5 6 r4~k4 r4' },
      prompt: {
        en: 'Your turn: one swap wins this game. Find it.',
        ru: 'Ваш ход: эту партию выигрывает один обмен. Найдите его.',
        uk: 'Ваш хід: цю партію виграє один обмін. Знайдіть його.',
      },
      right: {
        en: 'Right: the black 4 replaces the red 3, the table shows six 4s, and the white die stayed in your hand.',
        ru: 'Верно: чёрная четвёрка встаёт вместо красной тройки, на столе шесть четвёрок, а белый кубик остался в руке.',
        uk: 'Правильно: чорна четвірка стає замість червоної трійки, на столі шість четвірок, а білий кубик лишився в руці.',
      },
      wrong: {
        en: 'Not that one: the table still needs a 4 in place of the red 3, and the white die must stay in the hand.',
        ru: 'Не то: на столе всё ещё нужна 4 вместо красной тройки, а белый кубик должен остаться в руке.',
        uk: 'Не те: на столі досі потрібна 4 замість червоної трійки, а білий кубик має лишитися в руці.',
      },
    },
  },
};
