extension PostgresSessionStorage {
    /// The migration that installs `minerva_commit_group`: a group's writes in one call, one round
    /// trip and one transaction (the call's own), each session's write checked as it was when
    /// every write was statements of its own, and the conflicted ones reported, not failing the group.
    ///
    /// Each write is a position in the `w_` arrays, in the order rows are to be locked (ids in
    /// order, whichever instance commits, so that two groups never deadlock); a deletion sets
    /// `w_delete` and `w_id` only. What a write adds — events (`e_`), lists superseded (`ls_`),
    /// restarted (`lr_`) and new (`ln_`), answers (`a_`) — is in arrays of its own, each row naming
    /// its write's position (from 1) and the rows of a write in the order they are carried out.
    /// `t_` are the last uses to record, ids in order, after every write.
    ///
    /// A checked write (`w_expected` given) conflicts when the session's newest stored event is
    /// not the expected one or is gone (its row is locked `FOR KEY SHARE`, so that a deletion
    /// committed meanwhile reads as gone, and other writers of the session still pass), or when
    /// another instance's write from the same newest event claimed its first event's `seq` first.
    /// A creation conflicts when its `Idempotency-Key` is stored (and not expired before
    /// `w_creation_expire`) or its id is taken (then the key it claimed is released). Nothing of a
    /// conflicted write is written.
    ///
    /// Returns the positions (from 0) of the writes that conflicted.
    static let groupFunctionMigration = """
        CREATE FUNCTION minerva_commit_group(
            w_delete boolean[], w_id text[], w_expected bigint[], w_token bytea[], w_version bigint[], w_last_event bigint[],
            w_first_event bigint[], w_app text[], w_state bytea[], w_last_used float8[], w_created float8[], w_writes_head boolean[],
            w_oldest_kept bigint[], w_retained bigint[], w_kept_answers bigint[],
            w_creation_key text[], w_creation_at float8[], w_creation_body bytea[], w_creation_expire float8[],
            e_write int[], e_seq bigint[], e_body bytea[], e_checkpoint boolean[], e_version bigint[],
            ls_write int[], ls_node text[], ls_at bigint[],
            lr_write int[], lr_node text[],
            ln_write int[], ln_node text[], ln_version bigint[], ln_body bytea[],
            a_write int[], a_key text[], a_at float8[], a_body bytea[],
            t_id text[], t_last_used float8[]
        ) RETURNS int[] LANGUAGE plpgsql AS $body$
        DECLARE
            conflicts int[] := '{}';
            newest bigint;
            claims boolean;
            answered boolean;
            e int := 1; ls int := 1; lr int := 1; ln int := 1; a int := 1;
        BEGIN
            <<writes>>
            FOR i IN 1 .. coalesce(array_length(w_id, 1), 0) LOOP
                -- the rows of earlier writes that conflicted are passed over
                WHILE e <= cardinality(e_write) AND e_write[e] < i LOOP e := e + 1; END LOOP;
                WHILE ls <= cardinality(ls_write) AND ls_write[ls] < i LOOP ls := ls + 1; END LOOP;
                WHILE lr <= cardinality(lr_write) AND lr_write[lr] < i LOOP lr := lr + 1; END LOOP;
                WHILE ln <= cardinality(ln_write) AND ln_write[ln] < i LOOP ln := ln + 1; END LOOP;
                WHILE a <= cardinality(a_write) AND a_write[a] < i LOOP a := a + 1; END LOOP;
                IF w_delete[i] THEN
                    DELETE FROM minerva_session WHERE id = w_id[i];
                    CONTINUE writes;
                END IF;
                claims := w_expected[i] IS NOT NULL;
                IF claims THEN
                    SELECT GREATEST(last_event, COALESCE((SELECT max(seq) FROM minerva_event WHERE session = w_id[i]), 0)) INTO newest
                        FROM minerva_session WHERE id = w_id[i] FOR KEY SHARE;
                    IF NOT FOUND OR newest <> w_expected[i] THEN
                        conflicts := conflicts || (i - 1);
                        CONTINUE writes;
                    END IF;
                ELSE
                    IF w_creation_key[i] IS NOT NULL THEN
                        INSERT INTO minerva_creation (key, stored_at, body) VALUES (w_creation_key[i], w_creation_at[i], w_creation_body[i])
                            ON CONFLICT (key) DO UPDATE SET stored_at = EXCLUDED.stored_at, body = EXCLUDED.body
                            WHERE minerva_creation.stored_at < w_creation_expire[i];
                        IF NOT FOUND THEN
                            conflicts := conflicts || (i - 1);
                            CONTINUE writes;
                        END IF;
                    END IF;
                    INSERT INTO minerva_session (id, token_hash, version, last_event, first_event, app_version, state, last_used, created_at)
                        VALUES (w_id[i], w_token[i], w_version[i], w_last_event[i], w_first_event[i], w_app[i], w_state[i], w_last_used[i], w_created[i])
                        ON CONFLICT (id) DO NOTHING;
                    IF NOT FOUND THEN
                        DELETE FROM minerva_creation WHERE key = w_creation_key[i];
                        conflicts := conflicts || (i - 1);
                        CONTINUE writes;
                    END IF;
                END IF;
                WHILE e <= cardinality(e_write) AND e_write[e] = i LOOP
                    INSERT INTO minerva_event (session, seq, body, checkpoint, version)
                        VALUES (w_id[i], e_seq[e], e_body[e], e_checkpoint[e], e_version[e]) ON CONFLICT (session, seq) DO NOTHING;
                    IF claims AND NOT FOUND THEN
                        conflicts := conflicts || (i - 1);
                        CONTINUE writes;
                    END IF;
                    claims := false;
                    e := e + 1;
                END LOOP;
                IF w_expected[i] IS NOT NULL AND w_writes_head[i] THEN
                    UPDATE minerva_session SET version = w_version[i], last_event = w_last_event[i], app_version = w_app[i], state = w_state[i],
                        last_used = w_last_used[i] WHERE id = w_id[i];
                END IF;
                IF w_oldest_kept[i] IS NOT NULL THEN
                    DELETE FROM minerva_event WHERE session = w_id[i] AND seq < COALESCE(
                        (SELECT max(seq) FROM minerva_event WHERE session = w_id[i] AND checkpoint AND seq < w_oldest_kept[i]), w_oldest_kept[i]);
                END IF;
                WHILE ls <= cardinality(ls_write) AND ls_write[ls] = i LOOP
                    UPDATE minerva_list SET shown_until = ls_at[ls] WHERE session = w_id[i] AND node = ls_node[ls] AND shown_until IS NULL;
                    ls := ls + 1;
                END LOOP;
                WHILE lr <= cardinality(lr_write) AND lr_write[lr] = i LOOP
                    DELETE FROM minerva_list WHERE session = w_id[i] AND node = lr_node[lr];
                    lr := lr + 1;
                END LOOP;
                WHILE ln <= cardinality(ln_write) AND ln_write[ln] = i LOOP
                    INSERT INTO minerva_list (session, node, version, body, shown_until) VALUES (w_id[i], ln_node[ln], ln_version[ln], ln_body[ln], NULL)
                        ON CONFLICT (session, node, version) DO UPDATE SET body = EXCLUDED.body, shown_until = NULL;
                    ln := ln + 1;
                END LOOP;
                IF w_oldest_kept[i] IS NOT NULL THEN
                    -- the versions no kept event shows go, except a living node's newest retained ones
                    DELETE FROM minerva_list list WHERE session = w_id[i]
                        AND shown_until < COALESCE((SELECT min(seq) FROM minerva_event WHERE session = w_id[i]), 9223372036854775807)
                        AND version < COALESCE((SELECT current.version FROM minerva_list current
                            WHERE current.session = w_id[i] AND current.node = list.node AND current.shown_until IS NULL) - w_retained[i],
                            9223372036854775807);
                END IF;
                answered := false;
                WHILE a <= cardinality(a_write) AND a_write[a] = i LOOP
                    INSERT INTO minerva_answer (session, key, stored_at, body) VALUES (w_id[i], a_key[a], a_at[a], a_body[a])
                        ON CONFLICT (session, key) DO UPDATE SET stored_at = EXCLUDED.stored_at, body = EXCLUDED.body;
                    answered := true;
                    a := a + 1;
                END LOOP;
                IF answered AND w_kept_answers[i] IS NOT NULL THEN
                    DELETE FROM minerva_answer WHERE session = w_id[i] AND key NOT IN
                        (SELECT key FROM minerva_answer WHERE session = w_id[i] ORDER BY stored_at DESC LIMIT w_kept_answers[i]);
                END IF;
            END LOOP;
            FOR t IN 1 .. coalesce(array_length(t_id, 1), 0) LOOP
                UPDATE minerva_session SET last_used = GREATEST(last_used, t_last_used[t]) WHERE id = t_id[t];
            END LOOP;
            RETURN conflicts;
        END
        $body$
        """
}
