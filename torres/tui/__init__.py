"""Terminal play: drawing the game with rich (:mod:`.render`), the players at the keyboard and the bots
(:mod:`.session`), input with tab completion (:mod:`.prompt`)."""
