"""the host's key kept as a hash, like a seat's secret

Revision ID: b8e2f4a6c1d3
Revises: a9d3f5b7c2e8
Create Date: 2026-11-29 03:00:00

Each game stored its host's key in plain text; it keeps the key's SHA-256 now, so the host link
a host holds (and the key in its browser's session) works as before, and a copy of the database
runs no game. Going back cannot restore the keys: each game gets a new one nobody holds.
"""
import hashlib
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8e2f4a6c1d3'
down_revision = 'a9d3f5b7c2e8'
branch_labels = None
depends_on = None


def _drop_column(table, column):
    # In place on SQLite too: a copy of the game's table (batch mode) would drop the old one, and with it, through
    # the foreign keys' cascades, every seat, play and entry of every game.
    if op.get_bind().dialect.name == 'sqlite':
        op.execute(f'ALTER TABLE {table} DROP COLUMN {column}')
    else:
        op.drop_column(table, column)


def upgrade():
    op.add_column('game', sa.Column('host_key_hash', sa.String(length=64), nullable=False, server_default=''))
    game = sa.table('game', sa.column('id', sa.Integer), sa.column('host_token', sa.String),
                    sa.column('host_key_hash', sa.String))
    connection = op.get_bind()
    for row in connection.execute(sa.select(game.c.id, game.c.host_token)).all():
        digest = hashlib.sha256(row.host_token.encode()).hexdigest()
        connection.execute(game.update().where(game.c.id == row.id).values(host_key_hash=digest))
    _drop_column('game', 'host_token')


def downgrade():
    op.add_column('game', sa.Column('host_token', sa.String(length=32), nullable=False, server_default=''))
    game = sa.table('game', sa.column('id', sa.Integer), sa.column('host_token', sa.String))
    connection = op.get_bind()
    for row in connection.execute(sa.select(game.c.id)).all():
        connection.execute(game.update().where(game.c.id == row.id).values(host_token=secrets.token_urlsafe(16)))
    _drop_column('game', 'host_key_hash')
